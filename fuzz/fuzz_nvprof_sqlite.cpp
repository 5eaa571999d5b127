// libFuzzer entry of fuzz_nvprof_sqlite: see fuzz_entries.h.
#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return ws::fuzz::nvprofSqlite(data, size);
}
