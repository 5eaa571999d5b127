#include "import/torch_nvtx.h"

#include "model/json_object_writer.h"

#include <nlohmann/json.hpp>

#include <charconv>

namespace ws {

namespace {

// Position of the closing bracket matching the '[' at `open`, or npos.
size_t matchingBracket(std::string_view s, size_t open) {
    int depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
        if (s[i] == '[')
            ++depth;
        else if (s[i] == ']' && --depth == 0)
            return i;
    }
    return std::string_view::npos;
}

// PyTorch's operator namespaces: a range named so is an operator even without emit_nvtx's fields.
bool inTorchNamespace(std::string_view name) {
    const size_t colons = name.find("::");
    if (colons == std::string_view::npos)
        return false;
    const std::string_view ns = name.substr(0, colons);
    for (std::string_view known : {"aten", "c10d", "_c10d_functional", "c10d_functional", "autograd", "prim",
                                   "torchvision", "quantized", "profiler", "inductor", "cuda", "_quantized"})
        if (ns == known)
            return true;
    return false;
}

// emit_itt names a range and nothing else, so its scope comes from the name. Operators are not
// always namespaced (autograd's "ViewBackward0", "detach", Inductor's "triton_poi_fused_gelu_view_10"
// are cpu_op in torch.profiler). PyTorch's own record_function ranges, user_annotation there, are
// "Optimizer.step#AdamW.step", "ProfilerStep#3", "enumerate(DataLoader)#..." (a '#'), a process
// group's "nccl:all_reduce" (one colon) and "DistributedDataParallel.forward" (a dotted name). A
// program's own record_function named otherwise cannot be told from an operator.
bool isTorchAnnotation(std::string_view name) {
    if (name.find('#') != std::string_view::npos)
        return true;
    if (name.find(':') != std::string_view::npos && name.find("::") == std::string_view::npos)
        return true;
    if (name.find('.') == std::string_view::npos)
        return false;
    for (char c : name)
        if (!(c == '.' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return false;
    return true;
}

} // namespace

std::optional<TorchNvtxOp> parseTorchNvtxRange(std::string_view s) {
    TorchNvtxOp op;
    // The op name runs to the first ", <field> = " (op names themselves may contain ", ").
    size_t fields = std::string_view::npos;
    for (std::string_view key : {", seq = ", ", op_id = ", ", sizes = ", ", input_op_ids = "}) {
        const size_t at = s.find(key);
        if (at != std::string_view::npos && (fields == std::string_view::npos || at < fields))
            fields = at;
    }
    op.name = s.substr(0, fields);
    if (op.name.empty())
        return std::nullopt;
    if (fields == std::string_view::npos)
        return inTorchNamespace(op.name) ? std::optional<TorchNvtxOp>(op) : std::nullopt;
    std::string_view rest = s.substr(fields);
    if (const size_t at = rest.find(", seq = "); at != std::string_view::npos) {
        const char* b = rest.data() + at + 8;
        int64_t v = 0;
        if (std::from_chars(b, rest.data() + rest.size(), v).ec == std::errc())
            op.sequence = v;
    }
    if (const size_t at = rest.find(", sizes = ["); at != std::string_view::npos) {
        const size_t open = at + 10, close = matchingBracket(rest, open);
        if (close != std::string_view::npos)
            op.sizes = rest.substr(open, close + 1 - open);
    }
    return op;
}

std::optional<TorchNvtxOp> torchOperatorRange(std::string_view domain, std::string_view rangeName) {
    if (domain == kTorchIttDomain) {
        if (rangeName.empty() || isTorchAnnotation(rangeName))
            return std::nullopt;
        TorchNvtxOp op;
        op.name = rangeName;
        return op;
    }
    if (!domain.empty())
        return std::nullopt;
    return parseTorchNvtxRange(rangeName);
}

bool torchInputDimsJson(std::string_view sizes, std::string& out) {
    if (compactIntegerArrays(sizes, out)) // shapes: nested integer arrays, the common case
        return true;
    const nlohmann::json parsed = nlohmann::json::parse(sizes, nullptr, false);
    if (!parsed.is_array())
        return false;
    out = parsed.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return true;
}

} // namespace ws
