#include "analysis/op_cost.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace ws {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// "[[32,128],[128],[]]" -> {{32,128},{128},{}}. A nested list deeper than one tensor (a TensorList
// argument) becomes an empty entry: its shapes do not describe one tensor.
std::vector<std::vector<int64_t>> parseDims(std::string_view text) {
    std::vector<std::vector<int64_t>> out;
    if (text.size() < 2 || text.front() != '[')
        return out;
    int depth = 0;
    bool tooDeep = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '[') {
            ++depth;
            if (depth == 2) {
                out.emplace_back();
                tooDeep = false;
            } else if (depth > 2) {
                tooDeep = true;
                out.back().clear();
            }
        } else if (c == ']') {
            --depth;
        } else if (depth == 2 && !tooDeep && (isDigit(c) || c == '-')) {
            int64_t v = 0;
            const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
            if (ec != std::errc())
                return {};
            out.back().push_back(v);
            i = static_cast<size_t>(ptr - text.data()) - 1;
        }
    }
    return out;
}

// ["float","","[1, 1]"] -> views of each string's content (no escapes occur in these arrays).
std::vector<std::string_view> parseStrings(std::string_view text) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while ((i = text.find('"', i)) != std::string_view::npos) {
        const size_t end = text.find('"', i + 1);
        if (end == std::string_view::npos)
            break;
        out.push_back(text.substr(i + 1, end - i - 1));
        i = end + 1;
    }
    return out;
}

// "[2, 2]" or "2" -> {2, 2} / {2}; empty when not a list of integers.
std::vector<int64_t> parseInts(std::string_view text) {
    std::vector<int64_t> out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (isDigit(text[i]) || text[i] == '-') {
            int64_t v = 0;
            const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
            if (ec != std::errc())
                return {};
            out.push_back(v);
            i = static_cast<size_t>(ptr - text.data()) - 1;
        } else if (text[i] != '[' && text[i] != ']' && text[i] != ',' && text[i] != ' ') {
            return {};
        }
    }
    return out;
}

double numel(const std::vector<int64_t>& d) {
    double n = 1;
    for (int64_t v : d)
        n *= static_cast<double>(v);
    return n;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The op name without "aten::" and a trailing in-place underscore.
std::string_view baseName(std::string_view name) {
    if (startsWith(name, "aten::"))
        name.remove_prefix(6);
    if (!name.empty() && name.back() == '_' && !startsWith(name, "_"))
        name.remove_suffix(1);
    return name;
}

struct Tensor {
    const std::vector<int64_t>* dims;
    int elemSize;
};

// The inputs that are tensors (a dtype we know the size of, and a shape).
std::vector<Tensor> tensorsOf(const OpInputs& in) {
    std::vector<Tensor> out;
    for (size_t i = 0; i < in.dims.size(); ++i) {
        const int size = i < in.types.size() ? elementSize(in.types[i]) : 0;
        if (size > 0 && !in.dims[i].empty())
            out.push_back({&in.dims[i], size});
    }
    return out;
}

OpCost gemm(double batch, double m, double k, double n, int elemSize, double extraInputElems = 0) {
    OpCost c;
    if (batch <= 0 || m <= 0 || k <= 0 || n <= 0)
        return c;
    c.known = true;
    c.flops = 2 * batch * m * k * n;
    c.bytes = (batch * (m * k + k * n + m * n) + extraInputElems) * elemSize;
    return c;
}

OpCost matmulCost(const OpInputs& in, size_t a, size_t b, double extraInputElems = 0) {
    if (in.dims.size() <= std::max(a, b))
        return {};
    const auto& x = in.dims[a];
    const auto& y = in.dims[b];
    const int es = a < in.types.size() ? elementSize(in.types[a]) : 0;
    if (x.size() < 2 || y.size() < 2 || es == 0 || x.back() != y[y.size() - 2])
        return {};
    const double batchX = numel(std::vector<int64_t>(x.begin(), x.end() - 2));
    const double batchY = numel(std::vector<int64_t>(y.begin(), y.end() - 2));
    return gemm(std::max(batchX, batchY), static_cast<double>(x[x.size() - 2]), static_cast<double>(x.back()),
                static_cast<double>(y.back()), es, extraInputElems);
}

// Argument positions of the convolution overloads (ATen signatures).
struct ConvArgs {
    int stride, padding, dilation, transposed, groups, mask; // -1 = not an argument
};

const ConvArgs* convArgs(std::string_view name) {
    static const ConvArgs kConvolution{3, 4, 5, 6, 8, -1};
    static const ConvArgs kConvNd{3, 4, 5, -1, 6, -1};
    static const ConvArgs kCudnn{3, 2, 4, -1, 5, -1};
    static const ConvArgs kBackward{4, 5, 6, 7, 9, 10};
    if (name == "convolution" || name == "_convolution")
        return &kConvolution;
    if (name == "conv1d" || name == "conv2d" || name == "conv3d")
        return &kConvNd;
    if (name == "cudnn_convolution")
        return &kCudnn;
    if (name == "convolution_backward")
        return &kBackward;
    return nullptr;
}

std::vector<int64_t> concreteInts(const OpInputs& in, int index) {
    if (index < 0 || static_cast<size_t>(index) >= in.concrete.size())
        return {};
    return parseInts(in.concrete[static_cast<size_t>(index)]);
}

// 2 * N * K * (C/g) * prod(kernel) * prod(output spatial) per pass; backward does up to two
// passes (grad input, grad weight) as its output mask says.
OpCost convCost(std::string_view name, const ConvArgs& args, const OpInputs& in) {
    const bool backward = name == "convolution_backward";
    const size_t inputIdx = backward ? 1 : 0;
    const size_t weightIdx = backward ? 2 : 1;
    if (in.dims.size() <= weightIdx)
        return {};
    const auto& x = in.dims[inputIdx];
    const auto& w = in.dims[weightIdx];
    const int es = inputIdx < in.types.size() ? elementSize(in.types[inputIdx]) : 0;
    if (x.size() < 3 || w.size() != x.size() || es == 0)
        return {};
    if (args.transposed >= 0 && static_cast<size_t>(args.transposed) < in.concrete.size() &&
        in.concrete[static_cast<size_t>(args.transposed)] == "True")
        return {}; // transposed convolutions have a different output geometry
    const size_t spatial = x.size() - 2;
    std::vector<int64_t> out;
    if (backward) {
        const auto& g = in.dims[0];
        if (g.size() != x.size())
            return {};
        out.assign(g.begin() + 2, g.end());
    } else {
        auto expand = [&](std::vector<int64_t> v, int64_t dflt) {
            if (v.empty())
                v.assign(spatial, dflt);
            else if (v.size() == 1)
                v.assign(spatial, v[0]);
            return v;
        };
        if (args.padding < 0 || static_cast<size_t>(args.padding) >= in.concrete.size())
            return {}; // stride and padding unknown: the output size is a guess, so say nothing
        const std::vector<int64_t> stride = expand(concreteInts(in, args.stride), 1);
        const std::vector<int64_t> padding = expand(concreteInts(in, args.padding), -1);
        const std::vector<int64_t> dilation = expand(concreteInts(in, args.dilation), 1);
        if (stride.size() != spatial || padding.size() != spatial || dilation.size() != spatial || padding[0] < 0)
            return {};
        for (size_t i = 0; i < spatial; ++i) {
            const int64_t o = (x[2 + i] + 2 * padding[i] - dilation[i] * (w[2 + i] - 1) - 1) / std::max<int64_t>(1, stride[i]) + 1;
            if (o <= 0)
                return {};
            out.push_back(o);
        }
    }
    double passes = 1;
    if (backward) {
        passes = 2;
        if (args.mask >= 0 && static_cast<size_t>(args.mask) < in.concrete.size()) {
            const std::string_view mask = in.concrete[static_cast<size_t>(args.mask)];
            passes = 0;
            size_t pos = 0;
            for (int i = 0; i < 2; ++i) { // grad input, grad weight; the bias grad is a reduction
                const size_t t = mask.find("True", pos), f = mask.find("False", pos);
                if (t == std::string_view::npos && f == std::string_view::npos)
                    break;
                passes += t < f ? 1 : 0;
                pos = std::min(t, f) + 4;
            }
        }
    }
    const double batch = static_cast<double>(x[0]);
    const double outChannels = static_cast<double>(w[0]);
    const double perOutput = numel(std::vector<int64_t>(w.begin() + 1, w.end())); // C/g * kernel
    const double outPixels = numel(out);
    OpCost c;
    c.known = true;
    c.flops = passes * 2 * batch * outChannels * outPixels * perOutput;
    c.bytes = (numel(x) + numel(w) + batch * outChannels * outPixels) * es;
    return c;
}

bool isElementwise(std::string_view base) {
    static constexpr std::array<std::string_view, 34> kNames = {
        "add", "sub", "mul", "div", "neg", "abs", "exp", "log", "sqrt", "rsqrt", "pow", "reciprocal",
        "relu", "gelu", "silu", "sigmoid", "tanh", "hardtanh", "leaky_relu", "elu", "clamp", "clamp_min",
        "clamp_max", "where", "masked_fill", "threshold_backward", "gelu_backward", "silu_backward",
        "sigmoid_backward", "tanh_backward", "addcmul", "addcdiv", "lerp", "maximum"};
    return std::find(kNames.begin(), kNames.end(), base) != kNames.end();
}

} // namespace

int elementSize(std::string_view type) {
    if (type == "float" || type == "int" || type == "unsigned int")
        return 4;
    if (type == "double" || type == "long int" || type == "long long int" || type == "c10::complex<float>")
        return 8;
    if (type == "c10::Half" || type == "c10::BFloat16" || type == "short int" || type == "short")
        return 2;
    if (type == "unsigned char" || type == "signed char" || type == "bool" || startsWith(type, "c10::Float8"))
        return 1;
    if (type == "c10::complex<double>")
        return 16;
    return 0;
}

OpInputs parseOpInputs(std::string_view inputDims, std::string_view inputTypes, std::string_view concreteInputs) {
    OpInputs in;
    in.dims = parseDims(inputDims);
    in.types = parseStrings(inputTypes);
    in.concrete = parseStrings(concreteInputs);
    return in;
}

OpCost estimateOpCost(std::string_view opName, const OpInputs& in) {
    const std::string_view base = baseName(opName);
    if (base == "mm" || base == "matmul")
        return matmulCost(in, 0, 1);
    if (base == "bmm")
        return matmulCost(in, 0, 1);
    if (base == "addmm" || base == "baddbmm" || base == "addbmm") {
        const double bias = in.dims.empty() ? 0 : numel(in.dims[0]);
        return matmulCost(in, 1, 2, bias);
    }
    if (base == "linear") {
        // linear(input[..., K], weight[N, K], bias): weight is stored transposed.
        if (in.dims.size() < 2 || in.dims[0].empty() || in.dims[1].size() != 2 || in.types.empty())
            return {};
        const auto& x = in.dims[0];
        const auto& w = in.dims[1];
        const int es = elementSize(in.types[0]);
        if (es == 0 || x.back() != w[1])
            return {};
        const double rows = numel(std::vector<int64_t>(x.begin(), x.end() - 1));
        const double bias = in.dims.size() > 2 ? numel(in.dims[2]) * (in.dims[2].empty() ? 0 : 1) : 0;
        return gemm(1, rows, static_cast<double>(w[1]), static_cast<double>(w[0]), es, bias);
    }
    if (const ConvArgs* args = convArgs(base))
        return convCost(base, *args, in);
    const std::vector<Tensor> tensors = tensorsOf(in);
    if (tensors.empty())
        return {};
    if (base == "copy") {
        // copy_(dst, src): read src, write dst; dtypes may differ.
        OpCost c;
        c.known = true;
        for (const Tensor& t : tensors)
            c.bytes += numel(*t.dims) * t.elemSize;
        return c;
    }
    if (isElementwise(base)) {
        double outElems = 0;
        OpCost c;
        c.known = true;
        for (const Tensor& t : tensors) {
            outElems = std::max(outElems, numel(*t.dims));
            c.bytes += numel(*t.dims) * t.elemSize;
        }
        c.flops = outElems;
        c.bytes += outElems * tensors[0].elemSize;
        return c;
    }
    return {};
}

} // namespace ws
