#pragma once

#include <string_view>

namespace ws {

// PyTorch's, Inductor's generated and Triton's own Python frames (and frames without a file): a CUDA
// graph or node is named by the first frame outside them, the program's line (the frames inside say
// how torch got there, not where). Used by graph_replays.h and the capture importer's graph names.
inline bool isLibraryFrame(std::string_view file) {
    return file.empty() || file[0] == '<' || file.find("/torch/") != std::string_view::npos ||
           file.find("torchinductor_") != std::string_view::npos || file.find("/triton/") != std::string_view::npos;
}

} // namespace ws
