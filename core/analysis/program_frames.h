#pragma once

#include "model/torch_frames.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ws {

// PyTorch's, Inductor's generated and Triton's own Python frames (and frames without a file): a CUDA
// graph or node is named by the first frame outside them, the program's line (the frames inside say
// how torch got there, not where). Used by graph_replays.h and the capture importer's graph names.
inline bool isLibraryFrame(std::string_view file) {
    return file.empty() || file[0] == '<' || isTorchPackageFile(file);
}

// Of frames [first, last), innermost first: the innermost outside the libraries, else the innermost;
// last when there are none. fileOf(frame) gives a frame's file.
template <class It, class FileOf> It programFrame(It first, It last, FileOf fileOf) {
    for (It it = first; it != last; ++it)
        if (!isLibraryFrame(fileOf(*it)))
            return it;
    return first;
}

// "file:line" of a frame's file with its directories dropped, for labels ("decode.py:41").
inline std::string shortLocation(std::string_view file, int32_t line) {
    const size_t slash = file.find_last_of("/\\");
    return std::string(slash == std::string_view::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(line);
}

} // namespace ws
