#include "analysis/op_cost.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <initializer_list>

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

// Bytes per element of input i: its dtype's, else (a capture records shapes without dtypes) the
// caller's fallback when no dtype is recorded for it; 0 for scalars and unknown dtypes.
int elemSizeAt(const OpInputs& in, size_t i, int fallback) {
    if (i < in.types.size() && !in.types[i].empty())
        return elementSize(in.types[i]);
    return fallback;
}

// The inputs that are tensors (a dtype we know the size of, and a shape).
std::vector<Tensor> tensorsOf(const OpInputs& in, int fallback) {
    std::vector<Tensor> out;
    for (size_t i = 0; i < in.dims.size(); ++i) {
        const int size = elemSizeAt(in, i, fallback);
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

OpCost matmulCost(const OpInputs& in, int fallback, size_t a, size_t b, double extraInputElems = 0) {
    if (in.dims.size() <= std::max(a, b))
        return {};
    const auto& x = in.dims[a];
    const auto& y = in.dims[b];
    const int es = elemSizeAt(in, a, fallback);
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
OpCost convCost(std::string_view name, const ConvArgs& args, const OpInputs& in, int fallback) {
    const bool backward = name == "convolution_backward";
    const size_t inputIdx = backward ? 1 : 0;
    const size_t weightIdx = backward ? 2 : 1;
    if (in.dims.size() <= weightIdx)
        return {};
    const auto& x = in.dims[inputIdx];
    const auto& w = in.dims[weightIdx];
    const int es = elemSizeAt(in, inputIdx, fallback);
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

bool isIn(std::string_view base, std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), base) != names.end();
}

// Reductions: one op per input element; read the input, write a much smaller output.
bool isReduction(std::string_view base) {
    return isIn(base, {"sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "var", "std", "var_mean",
                       "std_mean", "norm", "linalg_vector_norm", "prod", "all", "any", "logsumexp", "cumsum"});
}

// Normalizations and softmax: a few ops per element (mean, variance or max, exp, scale), reading the
// input and writing an output of its size.
bool isNormalization(std::string_view base) {
    return isIn(base, {"softmax", "_softmax", "log_softmax", "_log_softmax", "_softmax_backward_data",
                       "_log_softmax_backward_data", "layer_norm", "native_layer_norm", "rms_norm", "_fused_rms_norm",
                       "group_norm", "native_group_norm", "batch_norm", "native_batch_norm", "_batch_norm_impl_index"});
}

// Copies of a tensor into a new one of its size: read and write each element once.
bool isCopyLike(std::string_view base) {
    return isIn(base, {"clone", "contiguous", "_to_copy", "to", "_copy_from", "_copy_from_and_resize"});
}

/*
 * Scaled dot-product attention, forward: QK^T and PV, 2*B*H*Lq*Lk*D each (torch.utils.flop_counter's
 * count, which does not subtract the causal mask; FlashAttention's benchmarks halve causal prefill,
 * and a decode step's one query attends to every key either way); backward: twice the forward's products. Layouts: [B, H, L, D] for the SDPA and cuDNN operators,
 * [B, L, H, D] for _flash_attention_forward / _efficient_attention_forward (and their backward).
 * Bytes: q, k, v and the output once each (the point of fused attention is that the scores never
 * reach memory).
 */
OpCost attentionCost(std::string_view base, const OpInputs& in, int fallback) {
    const bool backward = base.find("backward") != std::string_view::npos;
    const bool bthd = startsWith(base, "_flash_attention_") || startsWith(base, "_efficient_attention_");
    // (_cudnn_attention_forward, under _scaled_dot_product_cudnn_attention, is [B, H, L, D].)
    const size_t q = backward ? 1 : 0; // the backward ops take grad_out first
    if (in.dims.size() < q + 3)
        return {};
    const auto& qd = in.dims[q];
    const auto& kd = in.dims[q + 1];
    const auto& vd = in.dims[q + 2];
    if (qd.size() != 4 || kd.size() != 4 || vd.size() != 4)
        return {};
    const int es = elemSizeAt(in, q, fallback);
    if (es == 0)
        return {};
    const size_t l = bthd ? 1 : 2, h = bthd ? 2 : 1;
    const double batch = static_cast<double>(qd[0]), heads = static_cast<double>(qd[h]);
    const double lq = static_cast<double>(qd[l]), lk = static_cast<double>(kd[l]);
    const double dq = static_cast<double>(qd[3]), dv = static_cast<double>(vd[3]);
    if (batch <= 0 || heads <= 0 || lq <= 0 || lk <= 0)
        return {};
    OpCost c;
    c.known = true;
    c.flops = 2 * batch * heads * lq * lk * (dq + dv) * (backward ? 2 : 1);
    const double out = batch * heads * lq * dv;
    c.bytes = (numel(qd) + numel(kd) + numel(vd) + out) * es * (backward ? 2 : 1);
    return c;
}

bool isAttention(std::string_view base) {
    return base.find("scaled_dot_product") != std::string_view::npos ||
           base.find("_cudnn_attention_") != std::string_view::npos ||
           base.find("_flash_attention_") != std::string_view::npos ||
           base.find("_efficient_attention_") != std::string_view::npos;
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

OpCost estimateOpCost(std::string_view opName, const OpInputs& in, int fallbackElemSize) {
    const int fb = fallbackElemSize;
    const std::string_view base = baseName(opName);
    if (base == "mm" || base == "matmul" || base == "bmm")
        return matmulCost(in, fb, 0, 1);
    if (base == "addmm" || base == "baddbmm" || base == "addbmm" || base == "_addmm_activation") {
        const double bias = in.dims.empty() ? 0 : numel(in.dims[0]);
        return matmulCost(in, fb, 1, 2, bias);
    }
    if (base == "linear") {
        // linear(input[..., K], weight[N, K], bias): weight is stored transposed.
        if (in.dims.size() < 2 || in.dims[0].empty() || in.dims[1].size() != 2)
            return {};
        const auto& x = in.dims[0];
        const auto& w = in.dims[1];
        const int es = elemSizeAt(in, 0, fb);
        if (es == 0 || x.back() != w[1])
            return {};
        const double rows = numel(std::vector<int64_t>(x.begin(), x.end() - 1));
        const double bias = in.dims.size() > 2 ? numel(in.dims[2]) * (in.dims[2].empty() ? 0 : 1) : 0;
        return gemm(1, rows, static_cast<double>(w[1]), static_cast<double>(w[0]), es, bias);
    }
    if (const ConvArgs* args = convArgs(base))
        return convCost(base, *args, in, fb);
    if (isAttention(base))
        return attentionCost(base, in, fb);
    const std::vector<Tensor> tensors = tensorsOf(in, fb);
    if (tensors.empty())
        return {};
    auto bytesOf = [](const Tensor& t) { return numel(*t.dims) * t.elemSize; };
    OpCost c;
    c.known = true;
    if (base == "copy") {
        // copy_(dst, src): read src, write dst; dtypes may differ.
        for (const Tensor& t : tensors)
            c.bytes += bytesOf(t);
        return c;
    }
    if (isCopyLike(base)) {
        c.bytes = 2 * bytesOf(tensors[0]);
        return c;
    }
    if (base == "fill" || base == "zero") {
        c.bytes = bytesOf(tensors[0]); // written only
        return c;
    }
    if (base == "embedding" && in.dims.size() >= 2 && in.dims[0].size() == 2) {
        // embedding(weight [V, D], indices): gathers one row per index.
        const double rows = numel(in.dims[1]);
        c.bytes = 2 * rows * static_cast<double>(in.dims[0][1]) * tensors[0].elemSize;
        return c;
    }
    if (isReduction(base)) {
        c.flops = numel(*tensors[0].dims);
        c.bytes = bytesOf(tensors[0]);
        return c;
    }
    if (isNormalization(base)) {
        c.flops = 5 * numel(*tensors[0].dims);
        c.bytes = 2 * bytesOf(tensors[0]);
        for (size_t i = 1; i < tensors.size(); ++i)
            c.bytes += bytesOf(tensors[i]); // weight, bias, the backward's saved statistics
        return c;
    }
    if (isElementwise(base)) {
        double outElems = 0;
        for (const Tensor& t : tensors) {
            outElems = std::max(outElems, numel(*t.dims));
            c.bytes += bytesOf(t);
        }
        c.flops = outElems;
        c.bytes += outElems * tensors[0].elemSize;
        return c;
    }
    return {};
}

} // namespace ws
