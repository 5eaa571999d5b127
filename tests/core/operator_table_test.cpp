// Operator table (issue #6) checked against values computed independently by reference_ops.py
// (Python's json module + torch-tb-profiler's formulas from FORMATS.md 3.2, matching runtimes by
// External id and device work by correlation, no shared code): run
//   python3 tests/core/reference_ops.py --cpp tests/data/<file>...
// to re-derive kExpected.
#include "analysis/operator_csv.h"
#include "analysis/operator_table.h"
#include "analysis/operator_tree.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include <set>
#include <map>
#include <numeric>
#include <sstream>

using namespace ws;
using namespace ws::test;

namespace {

struct ExpectedOp {
    const char* file;
    const char* name;
    uint64_t calls;
    int64_t hostTotal, hostSelf, deviceTotal, deviceSelf, tcTotal, tcSelf;
};

const ExpectedOp kExpected[] = {
    // h100_gaunernst_bert-small-uncased__1016001.json.gz: 29 operator names
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::addmm", 26, 825744, 562599, 197598, 197598, 197598, 197598},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::_flash_attention_forward", 4, 128332, 49741, 37408, 37408, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::native_layer_norm", 10, 238124, 104273, 30912, 30912, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::add", 9, 116751, 73551, 14752, 14752, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::index_select", 3, 87242, 37831, 9824, 9824, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::gelu", 5, 73510, 50290, 9599, 9599, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::all", 1, 16500, 11120, 3648, 3648, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::_local_scalar_dense", 1, 19620, 4220, 2240, 2240, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::eq", 1, 22000, 14910, 1760, 1760, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::add_", 1, 7370, 3930, 1696, 1696, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::empty", 75, 192272, 192272, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::linear", 26, 1155770, 178393, 197598, 0, 197598, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::transpose", 46, 88482, 66632, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::t", 26, 106343, 53201, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::scaled_dot_product_attention", 4, 226663, 41091, 37408, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::layer_norm", 10, 276404, 38280, 30912, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::view", 94, 37091, 37091, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::reshape", 33, 50560, 36600, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::as_strided", 61, 30540, 30540, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::_scaled_dot_product_flash_attention", 4, 185572, 29200, 37408, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::slice", 2, 24660, 22660, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::embedding", 3, 116312, 19650, 9824, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::resize_", 3, 19491, 19491, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::permute", 12, 21981, 16141, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::empty_strided", 4, 15200, 15200, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::empty_like", 4, 23530, 8330, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::is_nonzero", 1, 29550, 7200, 2240, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::dropout", 9, 4410, 4410, 0, 0, 0, 0},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "aten::item", 1, 22350, 2730, 2240, 0, 0, 0},
    // step_based_trace_2543932_gpu_user_annotation.json.gz: 46 operator names
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::add_", 50, 981000, 567000, 100000, 100000, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::mm", 25, 889000, 651000, 70000, 70000, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::fill_", 30, 523000, 232000, 60000, 60000, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::mean", 5, 125000, 86000, 20000, 20000, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::mse_loss", 5, 381000, 164000, 30000, 10000, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::sigmoid", 5, 132000, 96000, 10000, 10000, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::mse_loss_backward", 10, 472000, 94000, 30000, 10000, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::sigmoid_backward", 5, 116000, 77000, 10000, 10000, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::copy_", 10, 236000, 95000, 1000, 1000, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::empty_strided", 15, 2318000, 2318000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::t", 45, 316000, 145000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::transpose", 45, 171000, 117000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::zero_", 25, 528000, 104000, 50000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "autograd::engine::evaluate_function: MseLossBackward0", 5, 525000, 94000, 20000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::as_strided", 83, 86000, 86000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "MmBackward0", 10, 678000, 84000, 34000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::_to_copy", 10, 2594000, 84000, 1000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "autograd::engine::evaluate_function: MmBackward0", 10, 760000, 82000, 34000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::unsqueeze", 20, 96000, 78000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::empty", 10, 75000, 75000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", 20, 516000, 74000, 40000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "torch::autograd::AccumulateGrad", 20, 442000, 74000, 40000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::matmul", 10, 603000, 59000, 36000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::empty_like", 10, 149000, 58000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::squeeze_", 10, 79000, 57000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::linear", 10, 995000, 50000, 56000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "autograd::engine::evaluate_function: AddBackward0", 10, 51000, 47000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "autograd::engine::evaluate_function: SqueezeBackward3", 10, 121000, 43000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "MseLossBackward0", 5, 431000, 41000, 20000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "autograd::engine::evaluate_function: TBackward0", 10, 114000, 41000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "autograd::engine::evaluate_function: SigmoidBackward0", 5, 174000, 34000, 10000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::to", 10, 2622000, 28000, 1000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::squeeze", 5, 30000, 25000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "autograd::engine::evaluate_function: UnsqueezeBackward0", 5, 64000, 25000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "SigmoidBackward0", 5, 140000, 24000, 10000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::as_strided_", 10, 22000, 22000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::ones_like", 5, 180000, 20000, 10000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "SqueezeBackward3", 10, 78000, 19000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::zeros_like", 5, 264000, 18000, 10000, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::select", 8, 19000, 17000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::unbind", 2, 35000, 16000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::resize_", 5, 11000, 11000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "TBackward0", 10, 73000, 10000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "UnsqueezeBackward0", 5, 39000, 9000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "aten::broadcast_tensors", 5, 5000, 5000, 0, 0, 0, 0},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", "AddBackward0", 10, 4000, 4000, 0, 0, 0, 0},
    // mi250_minitoy_train_ROCm6_2_kineto.json.gz: 42 operator names
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::copy_", 2, 136719, 40947, 38161, 38161, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::addmm", 1, 181604, 133381, 24480, 24480, 17600, 17600},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::sum", 1, 32813, 27553, 13600, 13600, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::mm", 1, 66306, 58210, 12640, 12640, 12640, 12640},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::mean", 1, 45827, 30028, 11040, 11040, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::add_", 2, 6613603, 65835, 9120, 9120, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::_foreach_add_", 1, 98206, 59232, 8481, 8481, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::mse_loss", 1, 138482, 54373, 19360, 8320, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::clamp_min", 1, 27352, 21782, 6720, 6720, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::fill_", 2, 68430, 45296, 5600, 5600, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::threshold_backward", 1, 37461, 31079, 5600, 5600, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::mse_loss_backward", 2, 316320, 72708, 12800, 5280, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::empty", 4, 139153, 139153, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::as_strided", 6, 114115, 114115, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::transpose", 4, 179050, 87457, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::t", 4, 246696, 67646, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::randn", 2, 167077, 63692, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::empty_like", 2, 135156, 63671, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::_to_copy", 2, 245956, 63119, 38161, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::empty_strided", 3, 61997, 61997, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::to", 2, 292475, 46519, 38161, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "torch::autograd::AccumulateGrad", 2, 6657647, 44044, 9120, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::zeros_like", 1, 200069, 42902, 2240, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::normal_", 2, 39115, 39115, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "MseLossBackward0", 1, 311681, 32772, 7520, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "autograd::engine::evaluate_function: AddmmBackward0", 1, 292003, 31368, 26240, 0, 12640, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::linear", 1, 275282, 29527, 24480, 0, 17600, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "autograd::engine::evaluate_function: MseLossBackward0", 1, 340024, 28343, 7520, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::result_type", 2, 27572, 27572, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::ones_like", 1, 93848, 26570, 3360, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::relu", 1, 50085, 22733, 6720, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "AddmmBackward0", 1, 215699, 22142, 12640, 0, 12640, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::zero_", 1, 61696, 20859, 2240, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::expand", 1, 30328, 19918, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "ReluBackward0", 1, 55696, 18235, 5600, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", 2, 6675842, 18195, 9120, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "autograd::engine::evaluate_function: ReluBackward0", 1, 71175, 15479, 5600, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::broadcast_tensors", 1, 13996, 13996, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::resize_", 1, 13345, 13345, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "aten::view", 1, 12123, 12123, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "autograd::engine::evaluate_function: TBackward0", 1, 73309, 11302, 0, 0, 0, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", "TBackward0", 1, 62007, 6713, 0, 0, 0, 0},
    // triton_example.json.gz: 3 operator names
    {"triton_example.json.gz", "triton_poi_fused_add_cos_sin_0", 1, 95812, 48044, 1760, 1760, 0, 0},
    {"triton_example.json.gz", "Torch-Compiled Region: 0/0", 1, 1352964, 1257152, 1760, 0, 0, 0},
    {"triton_example.json.gz", "TorchDynamo Cache Lookup", 1, 35591, 35591, 0, 0, 0, 0},
    // torch_compile_triton_mi300.json.gz: 18 operator names
    {"torch_compile_triton_mi300.json.gz", "aten::mm", 7, 253066, 197734, 8029555, 8029555, 8029555, 8029555},
    {"torch_compile_triton_mi300.json.gz", "aten::_flash_attention_forward", 1, 51357, 22023, 3683509, 3683509, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "triton_poi_fused__unsafe_view_mul_silu_2", 1, 14772, 9154, 527382, 527382, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "triton_poi_fused__unsafe_view_add_3", 1, 13070, 7312, 140848, 140848, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "triton_red_fused__unsafe_view_add_mean_mul_pow_rsqrt_1", 1, 16604, 11205, 90653, 90653, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "triton_red_fused_add_mean_mul_pow_rsqrt_0", 1, 37847, 23114, 77074, 77074, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "Torch-Compiled Region: 0/0", 1, 856311, 328408, 12549021, 0, 8029555, 0},
    {"torch_compile_triton_mi300.json.gz", "TorchDynamo Cache Lookup", 1, 22534, 22534, 0, 0, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "aten::_scaled_dot_product_flash_attention", 1, 87049, 19920, 3683509, 0, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "aten::transpose", 4, 15772, 13129, 0, 0, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "Pregraph bytecode", 1, 8873, 8873, 0, 0, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "aten::empty", 5, 7170, 7170, 0, 0, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "aten::empty_like", 1, 10626, 6590, 0, 0, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "AOTDispatcher Runtime Wrapper Prologue", 1, 6059, 6059, 0, 0, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "aten::empty_strided", 1, 4036, 4036, 0, 0, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "aten::as_strided", 8, 3704, 3704, 0, 0, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "aten::permute", 4, 4666, 3605, 0, 0, 0, 0},
    {"torch_compile_triton_mi300.json.gz", "aten::view", 1, 1382, 1382, 0, 0, 0, 0},
    // cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz: 1 operator names
    {"cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", "aten::empty", 4, 3964, 3964, 0, 0, 0, 0},
    // gpu_metrics_input.json: 47 operator names
    {"gpu_metrics_input.json", "aten::mm", 5, 1003000, 613000, 13000, 13000, 0, 0},
    {"gpu_metrics_input.json", "aten::add_", 10, 883000, 703000, 12000, 12000, 0, 0},
    {"gpu_metrics_input.json", "aten::sum", 3, 637000, 408000, 9000, 9000, 0, 0},
    {"gpu_metrics_input.json", "aten::fill_", 7, 386000, 266000, 7000, 7000, 0, 0},
    {"gpu_metrics_input.json", "aten::mse_loss_backward", 2, 736000, 219000, 5000, 2000, 0, 0},
    {"gpu_metrics_input.json", "aten::_s_where", 1, 167000, 102000, 2000, 2000, 0, 0},
    {"gpu_metrics_input.json", "aten::copy_", 2, 145000, 98000, 2000, 2000, 0, 0},
    {"gpu_metrics_input.json", "aten::ge", 2, 586000, 294000, 2000, 1000, 0, 0},
    {"gpu_metrics_input.json", "aten::mse_loss", 1, 445000, 212000, 3000, 1000, 0, 0},
    {"gpu_metrics_input.json", "aten::clamp_min", 1, 105000, 60000, 1000, 1000, 0, 0},
    {"gpu_metrics_input.json", "aten::empty", 24, 884000, 884000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::t", 9, 907000, 469000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "MmBackward", 2, 1548000, 415000, 8000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::view", 9, 396000, 396000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::transpose", 9, 438000, 285000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "torch::autograd::AccumulateGrad", 4, 667000, 282000, 4000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::as_strided", 17, 236000, 236000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::zero_", 9, 497000, 229000, 5000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::zeros", 4, 311000, 207000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::matmul", 2, 816000, 171000, 5000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::empty_strided", 3, 158000, 158000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::clamp", 2, 391000, 133000, 2000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::_unsafe_view", 2, 158000, 124000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "ClampBackward1", 1, 1110000, 123000, 4000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::linear", 2, 1347000, 122000, 9000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::reshape", 3, 282000, 121000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::expand", 3, 153000, 118000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::stack", 2, 458000, 118000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "MseLossBackward", 1, 727000, 113000, 3000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::to", 2, 361000, 111000, 2000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::_cat", 2, 166000, 109000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::unsqueeze", 4, 138000, 101000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::resize_", 4, 97000, 97000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::empty_like", 2, 227000, 95000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::where", 1, 409000, 89000, 2000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::zeros_like", 1, 369000, 76000, 1000, 0, 0, 0},
    {"gpu_metrics_input.json", "UnsafeViewBackward", 2, 238000, 64000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "TBackward", 2, 264000, 63000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::scalar_tensor", 1, 174000, 59000, 1000, 0, 0, 0},
    {"gpu_metrics_input.json", "ViewBackward", 1, 166000, 58000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::ones_like", 1, 169000, 38000, 1000, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::cat", 2, 202000, 36000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "AddBackward1", 2, 29000, 29000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::item", 1, 24000, 18000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::conj", 3, 17000, 17000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::broadcast_tensors", 1, 11000, 11000, 0, 0, 0, 0},
    {"gpu_metrics_input.json", "aten::_local_scalar_dense", 1, 6000, 6000, 0, 0, 0, 0},
    // cuda_event_sync_trace.json.gz: 9 operator names
    {"cuda_event_sync_trace.json.gz", "aten::sum", 1, 39000, 28000, 11000, 11000, 0, 0},
    {"cuda_event_sync_trace.json.gz", "aten::_local_scalar_dense", 1, 42000, 7000, 2000, 2000, 0, 0},
    {"cuda_event_sync_trace.json.gz", "aten::gt", 1, 33000, 21000, 1000, 1000, 0, 0},
    {"cuda_event_sync_trace.json.gz", "aten::fill_", 1, 50000, 14000, 1000, 1000, 0, 0},
    {"cuda_event_sync_trace.json.gz", "aten::empty", 1, 2187000, 2187000, 0, 0, 0, 0},
    {"cuda_event_sync_trace.json.gz", "aten::ones", 1, 2245000, 8000, 1000, 0, 0, 0},
    {"cuda_event_sync_trace.json.gz", "aten::item", 1, 45000, 3000, 2000, 0, 0, 0},
    {"cuda_event_sync_trace.json.gz", "aten::is_nonzero", 1, 47000, 2000, 2000, 0, 0, 0},
    {"cuda_event_sync_trace.json.gz", "aten::as_strided", 1, 1000, 1000, 0, 0, 0, 0},
};

std::shared_ptr<const Session> load(const std::string& file) {
    ImportResult r = importTraceFile(dataPath(file));
    EXPECT_TRUE(r.session) << file << ": " << r.error;
    return r.session;
}

std::vector<uint32_t> identity(size_t n) {
    std::vector<uint32_t> v(n);
    std::iota(v.begin(), v.end(), 0u);
    return v;
}

} // namespace

TEST(OperatorTable, PerNameNumbersMatchIndependentReference) {
    std::map<std::string, std::vector<const ExpectedOp*>> byFile;
    for (const ExpectedOp& e : kExpected)
        byFile[e.file].push_back(&e);
    ASSERT_EQ(byFile.size(), 8u);
    for (const auto& [file, expected] : byFile) {
        SCOPED_TRACE(file);
        auto session = load(file);
        ASSERT_TRUE(session);
        const OperatorTree tree = OperatorTree::build(*session);
        const OperatorTable table = OperatorTable::build(*session, tree, OperatorGrouping::Name);
        ASSERT_EQ(table.size(), expected.size());
        std::map<std::string, const OperatorRow*> rows;
        for (const OperatorRow& r : table.rows())
            rows[std::string(session->str(r.name))] = &r;
        for (const ExpectedOp* e : expected) {
            SCOPED_TRACE(e->name);
            auto it = rows.find(e->name);
            ASSERT_NE(it, rows.end());
            const OperatorRow& r = *it->second;
            EXPECT_EQ(r.calls, e->calls);
            EXPECT_EQ(r.hostTotalNs, e->hostTotal);
            EXPECT_EQ(r.hostSelfNs, e->hostSelf);
            EXPECT_EQ(r.deviceTotalNs, e->deviceTotal);
            EXPECT_EQ(r.deviceSelfNs, e->deviceSelf);
            EXPECT_EQ(r.tcTotalNs, e->tcTotal);
            EXPECT_EQ(r.tcSelfNs, e->tcSelf);
        }
        // Default order: self device time descending (host self without GPU activity).
        for (size_t i = 1; i < table.size(); ++i) {
            const OperatorRow& a = table.row(i - 1);
            const OperatorRow& b = table.row(i);
            if (table.hasDevice())
                EXPECT_GE(a.deviceSelfNs, b.deviceSelfNs);
            else
                EXPECT_GE(a.hostSelfNs, b.hostSelfNs);
        }
    }
}

TEST(OperatorTree, SelfDeviceTimeAddsUpToAttributedGpuTime) {
    auto session = load("h100_gaunernst_bert-small-uncased__1016001.json.gz");
    ASSERT_TRUE(session);
    const OperatorTree tree = OperatorTree::build(*session);
    int64_t self = 0;
    for (uint32_t i = 0; i < tree.size(); ++i)
        if (!tree.node(i).merged)
            self += tree.times(i).selfDeviceNs;
    EXPECT_EQ(self, tree.stats().gpuNsAttributed);
    // 60 kernels (307197 ns) and one memcpy (2240 ns) in this trace (summary_numbers_test).
    EXPECT_EQ(tree.stats().gpuActivities, 61u);
    EXPECT_EQ(tree.stats().gpuNs, 307197 + 2240);
    EXPECT_GT(tree.stats().gpuNsAttributed, 0);
    EXPECT_LE(tree.stats().gpuNsAttributed, tree.stats().gpuNs);
    // 479 cpu_op + ProfilerStep#6 (user annotation).
    EXPECT_EQ(tree.size(), 480u);
}

TEST(OperatorTable, GroupsByInputShapeWithDtypes) {
    auto session = load("h100_gaunernst_bert-small-uncased__1016001.json.gz");
    ASSERT_TRUE(session);
    const OperatorTree tree = OperatorTree::build(*session);
    ASSERT_TRUE(tree.argsLoaded());
    EXPECT_TRUE(tree.anyShapes());
    const OperatorTable table = OperatorTable::build(*session, tree, OperatorGrouping::NameAndInputShape);
    // Python over the same file: aten::addmm has 4 distinct (Input Dims, Input type): 17 + 4 + 4 + 1 calls.
    std::map<std::string, uint64_t> addmm;
    uint64_t calls = 0;
    for (size_t i = 0; i < table.size(); ++i) {
        calls += table.row(i).calls;
        if (session->str(table.row(i).name) == "aten::addmm")
            addmm[table.text(*session, tree, i, OperatorColumn::InputShapes)] = table.row(i).calls;
    }
    const OperatorTable byName = OperatorTable::build(*session, tree, OperatorGrouping::Name);
    EXPECT_EQ(calls, byName.totalCalls());
    ASSERT_EQ(addmm.size(), 4u);
    EXPECT_EQ(addmm["[[512], [141, 512], [512, 512], [], []]"], 17u);
    EXPECT_EQ(addmm["[[2048], [141, 512], [512, 2048], [], []]"], 4u);
    EXPECT_EQ(addmm["[[512], [141, 2048], [2048, 512], [], []]"], 4u);
    EXPECT_EQ(addmm["[[30522], [141, 512], [512, 30522], [], []]"], 1u);
    for (size_t i = 0; i < table.size(); ++i)
        if (session->str(table.row(i).name) == "aten::addmm") {
            EXPECT_EQ(table.text(*session, tree, i, OperatorColumn::InputTypes),
                      "[c10::BFloat16, c10::BFloat16, c10::BFloat16, Scalar, Scalar]");
            EXPECT_EQ(table.text(*session, tree, i, OperatorColumn::TensorCoreEligible), "yes");
            // All of addmm's kernels are Tensor Core GEMMs here.
            EXPECT_EQ(table.text(*session, tree, i, OperatorColumn::TcSelfPercent), "100.0");
        }

    // Per-slice lookup for the kernel table: the launching op of each kernel has its shapes.
    const OperatorNode* mm = nullptr;
    for (const OperatorNode& n : tree.nodes())
        if (session->str(n.name) == "aten::addmm") {
            mm = &n;
            break;
        }
    ASSERT_NE(mm, nullptr);
    const uint32_t mmIndex = static_cast<uint32_t>(mm - tree.nodes().data());
    const uint32_t mmTrack = tree.trackOf(mmIndex);
    EXPECT_EQ(tree.nodeOf(mmTrack, mm->slice), mmIndex);
    EXPECT_FALSE(tree.inputShapesOf(mmTrack, mm->slice).empty());
    EXPECT_EQ(tree.inputTypesOf(mmTrack, mm->slice), "[c10::BFloat16, c10::BFloat16, c10::BFloat16, Scalar, Scalar]");
    EXPECT_TRUE(tree.inputShapesOf(mmTrack, OperatorNode::kNone - 1).empty());
}

// A node keeps no track: the tree finds it from the node's place, also past tracks without nodes
// (GPU streams, empty threads), and the node is that track's slice of the same name.
TEST(OperatorTree, EveryNodeFindsItsTrack) {
    auto session = load("mi250_minitoy_train_ROCm6_2_kineto.json.gz");
    ASSERT_TRUE(session);
    const OperatorTree tree = OperatorTree::build(*session);
    ASSERT_GT(tree.size(), 0u);
    std::set<uint32_t> tracks;
    for (uint32_t i = 0; i < tree.size(); ++i) {
        const uint32_t t = tree.trackOf(i);
        ASSERT_LT(t, session->tracks().size());
        tracks.insert(t);
        EXPECT_EQ(tree.nodeOf(t, tree.node(i).slice), i);
        EXPECT_EQ(session->tracks()[t].names[tree.node(i).slice], tree.node(i).name);
        EXPECT_EQ(tree.start(*session, i), session->tracks()[t].start[tree.node(i).slice]);
    }
    EXPECT_GE(tracks.size(), 2u); // the forward and the backward thread
}

TEST(OperatorTable, GroupsByPythonCallStack) {
    auto session = load("h100_gaunernst_bert-small-uncased__1016001.json.gz");
    ASSERT_TRUE(session);
    const OperatorTree tree = OperatorTree::build(*session);
    EXPECT_TRUE(tree.anyCallStack());
    const OperatorTable table = OperatorTable::build(*session, tree, OperatorGrouping::NameAndCallStack);
    const OperatorTable byName = OperatorTable::build(*session, tree, OperatorGrouping::Name);
    EXPECT_EQ(table.totalCalls(), byName.totalCalls());
    EXPECT_GT(table.size(), byName.size());
    size_t withStack = 0;
    for (size_t i = 0; i < table.size(); ++i) {
        const std::string stack = table.text(*session, tree, i, OperatorColumn::CallStack);
        if (!stack.empty())
            ++withStack;
    }
    EXPECT_GT(withStack, table.size() / 2);
}

TEST(OperatorTable, TimeRangeKeepsCallsStartingInside) {
    auto session = load("step_based_trace_2543932_gpu_user_annotation.json.gz");
    ASSERT_TRUE(session);
    const OperatorTree tree = OperatorTree::build(*session);
    const OperatorTable all = OperatorTable::build(*session, tree, OperatorGrouping::Name);
    const int64_t mid = session->startNs() + (session->endNs() - session->startNs()) / 2;
    const OperatorTable first =
        OperatorTable::build(*session, tree, OperatorGrouping::Name, OperatorTimeRange{session->startNs(), mid});
    const OperatorTable second =
        OperatorTable::build(*session, tree, OperatorGrouping::Name, OperatorTimeRange{mid, session->endNs() + 1});
    EXPECT_GT(first.totalCalls(), 0u);
    EXPECT_GT(second.totalCalls(), 0u);
    EXPECT_EQ(first.totalCalls() + second.totalCalls(), all.totalCalls());
    uint64_t expected = 0;
    for (const OperatorNode& n : tree.nodes())
        expected += n.counted() && tree.start(*session, uint32_t(&n - tree.nodes().data())) >= session->startNs() &&
                    tree.start(*session, uint32_t(&n - tree.nodes().data())) < mid;
    EXPECT_EQ(first.totalCalls(), expected);
    const OperatorTable none =
        OperatorTable::build(*session, tree, OperatorGrouping::Name, OperatorTimeRange{mid, mid});
    EXPECT_EQ(none.size(), 0u);
}

TEST(OperatorTable, SortsAndFiltersInCore) {
    auto session = load("mi250_minitoy_train_ROCm6_2_kineto.json.gz");
    ASSERT_TRUE(session);
    const OperatorTree tree = OperatorTree::build(*session);
    const OperatorTable table = OperatorTable::build(*session, tree, OperatorGrouping::Name);
    ASSERT_GT(table.size(), 10u);
    const auto byName = table.sortedOrder(OperatorColumn::Name);
    for (size_t i = 1; i < byName.size(); ++i)
        EXPECT_LT(session->str(table.row(byName[i - 1]).name), session->str(table.row(byName[i]).name));
    const auto byCalls = table.sortedOrder(OperatorColumn::Calls, true);
    for (size_t i = 1; i < byCalls.size(); ++i)
        EXPECT_GE(table.row(byCalls[i - 1]).calls, table.row(byCalls[i]).calls);
    const auto byHost = table.sortedOrder(OperatorColumn::HostSelf);
    for (size_t i = 1; i < byHost.size(); ++i)
        EXPECT_LE(table.row(byHost[i - 1]).hostSelfNs, table.row(byHost[i]).hostSelfNs);
    // TC percentage is absent for ops without device time: last in both directions.
    for (bool descending : {false, true}) {
        const auto byTc = table.sortedOrder(OperatorColumn::TcSelfPercent, descending);
        bool sawAbsent = false;
        for (uint32_t r : byTc) {
            const bool absent = !table.row(r).tcSelfFraction();
            EXPECT_FALSE(sawAbsent && !absent);
            sawAbsent = sawAbsent || absent;
        }
    }
    const auto mm = table.filterByName(byName, "ATEN::MM");
    ASSERT_FALSE(mm.empty());
    for (uint32_t r : mm)
        EXPECT_NE(std::string(session->str(table.row(r).name)).find("aten::mm"), std::string::npos);
}

TEST(OperatorTable, CpuOnlyTraceSaysDeviceTimeIsNotInTheTrace) {
    auto session = load("cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
    ASSERT_TRUE(session);
    const OperatorTree tree = OperatorTree::build(*session);
    const OperatorTable table = OperatorTable::build(*session, tree, OperatorGrouping::Name);
    EXPECT_FALSE(table.hasDevice());
    ASSERT_EQ(table.size(), 1u);
    EXPECT_EQ(table.text(*session, tree, 0, OperatorColumn::DeviceSelf), "");
    EXPECT_EQ(table.text(*session, tree, 0, OperatorColumn::TcSelfPercent), "");
    EXPECT_EQ(table.text(*session, tree, 0, OperatorColumn::HostSelf), "3964");
    std::ostringstream text;
    writeOperatorText(text, *session, tree, table, identity(table.size()));
    EXPECT_NE(text.str().find("device time: not in this trace"), std::string::npos);
    EXPECT_EQ(text.str().find("Device self"), std::string::npos);
}

TEST(OperatorCsv, HeaderPerGroupingAndEmptyAbsentFields) {
    auto session = load("h100_gaunernst_bert-small-uncased__1016001.json.gz");
    ASSERT_TRUE(session);
    const OperatorTree tree = OperatorTree::build(*session);
    const std::pair<OperatorGrouping, const char*> headers[] = {
        {OperatorGrouping::Name, "name,calls,host_total_ns,host_self_ns,device_total_ns,device_self_ns,tc_eligible,"
                                 "tc_self_pct,tc_total_pct"},
        {OperatorGrouping::NameAndInputShape, "name,input_shapes,input_types,calls,host_total_ns,host_self_ns,"
                                              "device_total_ns,device_self_ns,tc_eligible,tc_self_pct,tc_total_pct"},
        {OperatorGrouping::NameAndCallStack, "name,call_stack,calls,host_total_ns,host_self_ns,device_total_ns,"
                                             "device_self_ns,tc_eligible,tc_self_pct,tc_total_pct"},
    };
    for (const auto& [grouping, header] : headers) {
        const OperatorTable table = OperatorTable::build(*session, tree, grouping);
        std::ostringstream csv;
        writeOperatorCsv(csv, *session, tree, table, identity(table.size()));
        std::istringstream in(csv.str());
        std::string line;
        std::getline(in, line);
        EXPECT_EQ(line, header);
        size_t lines = 0;
        while (std::getline(in, line))
            ++lines;
        EXPECT_EQ(lines, table.size());
    }
    // The first row by name is aten::addmm (most self device time), with its exact numbers.
    const OperatorTable table = OperatorTable::build(*session, tree, OperatorGrouping::Name);
    std::ostringstream csv;
    writeOperatorCsv(csv, *session, tree, table, identity(1));
    EXPECT_NE(csv.str().find("\naten::addmm,26,825744,562599,197598,197598,yes,100.0,100.0\n"), std::string::npos)
        << csv.str();
}

TEST(OperatorTree, TensorCoreEligibleNamesAreExact) {
    EXPECT_TRUE(operatorIsTensorCoreEligible("aten::mm"));
    EXPECT_TRUE(operatorIsTensorCoreEligible("aten::_convolution"));
    EXPECT_TRUE(operatorIsTensorCoreEligible("AddmmBackward0"));
    EXPECT_FALSE(operatorIsTensorCoreEligible("aten::mmx"));
    EXPECT_FALSE(operatorIsTensorCoreEligible("aten::add"));
    EXPECT_FALSE(operatorIsTensorCoreEligible("autograd::engine::evaluate_function: MmBackward0"));
}

// A hand-made trace for the rules real test traces do not exercise, with numbers worked out by hand:
// a same-name single child (collapsed), a non-node user annotation between an op and its child, a
// driver call nested in a runtime call (its kernel counts, its time is not subtracted twice), an
// excluded Optimizer.step parent, a "Call stack" argument and input shapes.
// A hand-made trace for the tb rules: a step, same-name linear calls, a non-node annotation, mm
// launching a kernel by a runtime and a driver call, a memset, the optimizer excluded.
static std::string handMadeTbRulesTrace() {
    return R"json({"traceEvents":[
      {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
      {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":10,"dur":50,
       "args":{"External id":1,"Input Dims":[[2,3]],"Input type":["float"],"Call stack":"model.py(5): forward;train.py(9): main"}},
      {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":12,"dur":40,"args":{"External id":2}},
      {"ph":"X","cat":"user_annotation","name":"my_block","pid":1,"tid":1,"ts":14,"dur":30,"args":{"External id":6}},
      {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":15,"dur":20,"args":{"External id":3}},
      {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":16,"dur":5,"args":{"External id":3,"correlation":100}},
      {"ph":"X","cat":"cuda_driver","name":"cuLaunchKernel","pid":1,"tid":1,"ts":17,"dur":2,"args":{"External id":3,"correlation":101}},
      {"ph":"X","cat":"cuda_runtime","name":"cudaMemsetAsync","pid":1,"tid":1,"ts":50,"dur":1,"args":{"External id":2,"correlation":102}},
      {"ph":"X","cat":"cpu_op","name":"Optimizer.step#SGD.step","pid":1,"tid":1,"ts":70,"dur":20,"args":{"External id":4}},
      {"ph":"X","cat":"cpu_op","name":"aten::add_","pid":1,"tid":1,"ts":72,"dur":5,"args":{"External id":5}},
      {"ph":"X","cat":"kernel","name":"sm90_xmma_gemm_bf16","pid":0,"tid":7,"ts":30,"dur":10,"args":{"correlation":100}},
      {"ph":"X","cat":"kernel","name":"triton_k2","pid":0,"tid":7,"ts":60,"dur":3,"args":{"correlation":101}},
      {"ph":"X","cat":"gpu_memset","name":"Memset (Device)","pid":0,"tid":7,"ts":55,"dur":1,"args":{"correlation":102}},
      {"ph":"s","cat":"ac2g","name":"ac2g","id":100,"pid":1,"tid":1,"ts":16},
      {"ph":"f","cat":"ac2g","name":"ac2g","id":100,"pid":0,"tid":7,"ts":30,"bp":"e"},
      {"ph":"s","cat":"ac2g","name":"ac2g","id":101,"pid":1,"tid":1,"ts":17},
      {"ph":"f","cat":"ac2g","name":"ac2g","id":101,"pid":0,"tid":7,"ts":60,"bp":"e"},
      {"ph":"s","cat":"ac2g","name":"ac2g","id":102,"pid":1,"tid":1,"ts":50},
      {"ph":"f","cat":"ac2g","name":"ac2g","id":102,"pid":0,"tid":7,"ts":55,"bp":"e"}
    ]})json";
}

TEST(OperatorTree, HandMadeTraceFollowsTheTbRules) {
    const std::string trace = handMadeTbRulesTrace();
    ImportResult r = importText(trace, {}, "ops_rules.json");
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const OperatorTree tree = OperatorTree::build(s);
    EXPECT_EQ(tree.stats().runtimeCalls, 3u);
    EXPECT_EQ(tree.stats().runtimeCallsInNodes, 3u);
    EXPECT_EQ(tree.stats().gpuActivities, 3u);
    EXPECT_EQ(tree.stats().gpuActivitiesAttributed, 3u);
    EXPECT_EQ(tree.stats().gpuNsAttributed, 14000);

    const OperatorTable table = OperatorTable::build(s, tree, OperatorGrouping::Name);
    ASSERT_EQ(table.size(), 3u);
    std::map<std::string, const OperatorRow*> rows;
    for (const OperatorRow& row : table.rows())
        rows[std::string(s.str(row.name))] = &row;
    ASSERT_TRUE(rows.count("aten::mm") && rows.count("aten::linear") && rows.count("aten::add_"));
    // mm: 20 us minus the outer runtime call (the nested driver call is inside it); the kernels of
    // both the runtime and the driver call.
    const OperatorRow& mm = *rows["aten::mm"];
    EXPECT_EQ(mm.calls, 1u);
    EXPECT_EQ(mm.hostSelfNs, 15000);
    EXPECT_EQ(mm.deviceSelfNs, 13000);
    EXPECT_EQ(mm.tcSelfNs, 10000);
    EXPECT_EQ(table.text(s, tree, static_cast<size_t>(rows["aten::mm"] - table.rows().data()),
                         OperatorColumn::TcSelfPercent),
              "76.9");
    // linear: the two same-name calls are one: 50 us host, self = (50 - 40) + (40 - 20 - 1).
    const OperatorRow& linear = *rows["aten::linear"];
    EXPECT_EQ(linear.calls, 1u);
    EXPECT_EQ(linear.hostTotalNs, 50000);
    EXPECT_EQ(linear.hostSelfNs, 29000);
    EXPECT_EQ(linear.deviceSelfNs, 1000);
    EXPECT_EQ(linear.deviceTotalNs, 14000);
    EXPECT_EQ(linear.tcTotalNs, 10000);
    EXPECT_TRUE(linear.tensorCoreEligible);
    // add_ under the excluded Optimizer.step still counts; Optimizer.step and ProfilerStep do not.
    EXPECT_EQ(rows["aten::add_"]->hostSelfNs, 5000);
    EXPECT_EQ(table.row(0).name, mm.name); // most self device time first

    const OperatorTable byStack = OperatorTable::build(s, tree, OperatorGrouping::NameAndCallStack);
    bool sawStack = false;
    for (size_t i = 0; i < byStack.size(); ++i)
        if (s.str(byStack.row(i).name) == "aten::linear") {
            EXPECT_EQ(byStack.text(s, tree, i, OperatorColumn::CallStack), "model.py(5): forward;train.py(9): main");
            sawStack = true;
        }
    EXPECT_TRUE(sawStack);
    const OperatorTable byShape = OperatorTable::build(s, tree, OperatorGrouping::NameAndInputShape);
    for (size_t i = 0; i < byShape.size(); ++i)
        if (s.str(byShape.row(i).name) == "aten::linear") {
            EXPECT_EQ(byShape.text(s, tree, i, OperatorColumn::InputShapes), "[[2, 3]]");
            EXPECT_EQ(byShape.text(s, tree, i, OperatorColumn::InputTypes), "[float]");
        }
    // Only calls starting in [0, 11 us): the outer linear.
    const OperatorTable early =
        OperatorTable::build(s, tree, OperatorGrouping::Name, OperatorTimeRange{s.startNs(), s.startNs() + 11000});
    ASSERT_EQ(early.size(), 1u);
    EXPECT_EQ(s.str(early.row(0).name), "aten::linear");

    OperatorTreeOptions flat;
    flat.collapseSameName = false;
    const OperatorTree uncollapsed = OperatorTree::build(s, flat);
    const OperatorTable two = OperatorTable::build(s, uncollapsed, OperatorGrouping::Name);
    for (const OperatorRow& row : two.rows())
        if (s.str(row.name) == "aten::linear") {
            EXPECT_EQ(row.calls, 2u);
            EXPECT_EQ(row.hostTotalNs, 90000);
        }
}

// Times past 32 bits (a node keeps them in 32 bits unless one is out of range): the hand-made
// trace above stretched 100000 times, so the steps, linear and mm last seconds (wide) while the
// runtime calls and kernels stay narrow, and every sum scales exactly.
TEST(OperatorTree, SecondsLongOperatorsKeepExactTimes) {
    const std::string trace = handMadeTbRulesTrace();
    nlohmann::json j = nlohmann::json::parse(trace);
    constexpr int64_t kStretch = 100000;
    for (auto& e : j["traceEvents"])
        for (const char* key : {"ts", "dur"})
            if (e.contains(key))
                e[key] = e[key].get<int64_t>() * kStretch;
    ImportResult r = importText(j.dump(), {}, "ops_rules_long.json");
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const OperatorTree tree = OperatorTree::build(s);
    size_t wide = 0;
    for (const OperatorNode& n : tree.nodes())
        wide += n.wide;
    EXPECT_GT(wide, 0u);
    EXPECT_LT(wide, tree.size());
    EXPECT_EQ(tree.stats().gpuNsAttributed, 14000 * kStretch);
    const OperatorTable table = OperatorTable::build(s, tree, OperatorGrouping::Name);
    std::map<std::string, const OperatorRow*> rows;
    for (const OperatorRow& row : table.rows())
        rows[std::string(s.str(row.name))] = &row;
    ASSERT_TRUE(rows.count("aten::mm") && rows.count("aten::linear") && rows.count("aten::add_"));
    EXPECT_EQ(rows["aten::mm"]->hostSelfNs, 15000 * kStretch);
    EXPECT_EQ(rows["aten::mm"]->deviceSelfNs, 13000 * kStretch);
    EXPECT_EQ(rows["aten::mm"]->tcSelfNs, 10000 * kStretch);
    const OperatorRow& linear = *rows["aten::linear"];
    EXPECT_EQ(linear.hostTotalNs, 50000 * kStretch);
    EXPECT_EQ(linear.hostSelfNs, 29000 * kStretch);
    EXPECT_EQ(linear.deviceSelfNs, 1000 * kStretch);
    EXPECT_EQ(linear.deviceTotalNs, 14000 * kStretch);
    EXPECT_EQ(linear.tcTotalNs, 10000 * kStretch);
    EXPECT_EQ(rows["aten::add_"]->hostSelfNs, 5000 * kStretch);
}
