#pragma once

#include <string_view>

namespace ws {

// Whether a Python file belongs to PyTorch's own package, Inductor's generated code or Triton: the
// frames that say how torch got somewhere, not where the program asked for it. Judged by the last
// "/torch/" (or "/triton/") of the path with no "-packages/" after it, so a virtual environment kept
// under a folder named torch (/opt/torch/.venv/lib/python3.12/site-packages/transformers/...) is
// not taken for PyTorch, while an installed package (.../site-packages/torch/nn/...) and a source
// checkout (~/pytorch/torch/nn/...) are.
inline bool isTorchPackageFile(std::string_view file) {
    if (file.find("torchinductor_") != std::string_view::npos)
        return true;
    for (std::string_view package : {std::string_view("/torch/"), std::string_view("/triton/")}) {
        const size_t at = file.rfind(package);
        if (at != std::string_view::npos && file.find("-packages/", at) == std::string_view::npos)
            return true;
    }
    return false;
}

} // namespace ws
