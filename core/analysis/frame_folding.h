#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * FrameFolding: which Python frames are plumbing between the frames that matter (issue #51), folded
 * out of flame graphs and stacks by default. In a transformers generate() stack 10 of the first 17
 * frames are nn.Module's dispatch (Module._wrapped_call_impl, Module._call_impl), decorators'
 * closures (can_return_tuple.<locals>.wrapper, context_decorator.<locals>.decorate_context) and a
 * layer's __call__; folding them leaves model code, the user's or a library's (LlamaAttention.forward
 * stays), so LlamaForCausalLM.forward comes three rows under generate().
 *
 * A pattern without '.' or '*' matches the function's last dotted component ("wrapper" matches
 * "can_return_tuple.<locals>.wrapper", and Kineto's unqualified "wrapper"); any other pattern is a
 * glob over the whole function name, '*' matching any run of characters
 * ("Module.*_call_impl", "torch._dynamo.*"). Frames that carry no function (operators, "(no
 * stack)") never match. A folded frame's weight and children go to its caller.
 */
struct FrameFolding {
    std::vector<std::string> patterns;

    // The patterns above: _call_impl, _wrapped_call_impl, wrapper, wrapped_func (transformers'
    // deprecate_kwarg), decorate_context, __call__.
    static FrameFolding defaults();
    // Nothing folded.
    static FrameFolding none() { return {}; }
    // Comma- or whitespace-separated patterns (the CLI's --fold, the settings' text); empty parts
    // are skipped.
    static FrameFolding parse(std::string_view text);
    std::string text() const; // the patterns joined with ", "

    bool empty() const { return patterns.empty(); }
    bool folds(std::string_view function) const;
};

// Whether one pattern matches `function` (the rules above).
bool framePatternMatches(std::string_view pattern, std::string_view function);

} // namespace ws
