#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ws {
class Session;
}

namespace ws::fuzz {

// Writes the input to this process's scratch file (in /dev/shm when there is one) and returns its
// path: the importers read files, as they do for users. The same path is reused every run.
const std::string& inputFile(const uint8_t* data, size_t size, const char* extension);

// What a user does next with an imported session, so that damaged models are exercised too: the
// Overview, the operator tree with its argument pass (which reads the input file again), the
// operator table by call stack, the kernel table and the trace summary.
void analyse(const Session& session);

} // namespace ws::fuzz
