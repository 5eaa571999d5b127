// libFuzzer entry of fuzz_xplane: see fuzz_entries.h.
#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return ws::fuzz::xplane(data, size);
}
