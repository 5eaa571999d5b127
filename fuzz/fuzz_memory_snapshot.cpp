// libFuzzer entry of fuzz_memory_snapshot: see fuzz_entries.h.
#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return ws::fuzz::memorySnapshot(data, size);
}
