#include "import/operator_inference.h"

#include <array>
#include <unordered_map>

namespace ws {

namespace {

// (stack, activity, previous, one before), (stack, activity, previous), (stack, activity), then
// without the stack: (activity, previous, one before), (activity, previous). The capture keeps
// operators on until every (activity, previous, one before) of a thread was seen with them
// (inject/operatorwindows.h), so code unrolled per layer (torch.compile's output, one line per
// layer) still finds its kernels' context without its line. Never the activity alone: a CUDA
// graph's replay would take the operator its first kernel had when captured.
constexpr int kLevels = 5;
constexpr double kAgreement = 0.9;

uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

// Context keys of a launch, most specific first.
std::array<uint64_t, kLevels> contexts(const OperatorInference::Launch& l, uint32_t previous, uint32_t before) {
    const uint64_t base = mix(mix(0x1234567ull, l.activity), l.stackKey);
    const uint64_t withPrevious = mix(base, previous);
    const uint64_t noStack = mix(mix(0x89abcdefull, l.activity), previous);
    return {mix(withPrevious, before) ^ 1, withPrevious ^ 2, base ^ 3, mix(noStack, before) ^ 4, noStack ^ 5};
}

// An answer is the operator and whether the launch continues a call (not its first launch): a
// kernel repeated inside one call (a radix sort's passes) has one answer at every position.
uint64_t answerOf(const OperatorInference::Launch& l) { return uint64_t(l.op) << 1 | (l.position > 0 ? 1 : 0); }

struct Answer {
    uint64_t opAndPosition = 0; // the leading answer (answerOf)
    uint32_t votes = 0;         // for the leading answer (Boyer-Moore majority)
    uint32_t total = 0;
    uint32_t agreeing = 0;      // counted in a second pass for the leading answer
};

} // namespace

std::vector<OperatorInference::Call> OperatorInference::infer(const std::vector<Launch>& launches) {
    // The two launches before each one on its thread.
    struct Previous {
        uint32_t last = 0;
        uint32_t before = 0;
    };
    std::unordered_map<uint32_t, Previous> previous;
    std::vector<std::array<uint64_t, kLevels>> keys(launches.size());
    for (size_t i = 0; i < launches.size(); ++i) {
        Previous& p = previous[launches[i].thread];
        keys[i] = contexts(launches[i], p.last, p.before);
        p.before = p.last;
        p.last = launches[i].activity;
    }

    // Learn: a majority candidate per context, then how many observations agree with it.
    std::array<std::unordered_map<uint64_t, Answer>, kLevels> learned;
    bool anyOperator = false;
    for (size_t i = 0; i < launches.size(); ++i) {
        if (launches[i].op == 0)
            continue;
        anyOperator = true;
        const uint64_t value = answerOf(launches[i]);
        for (int level = 0; level < kLevels; ++level) {
            Answer& a = learned[level][keys[i][level]];
            ++a.total;
            if (a.votes == 0) {
                a.opAndPosition = value;
                a.votes = 1;
            } else {
                a.votes += a.opAndPosition == value ? 1 : -1;
            }
        }
    }
    if (!anyOperator)
        return {};
    for (size_t i = 0; i < launches.size(); ++i) {
        if (launches[i].op == 0)
            continue;
        const uint64_t value = answerOf(launches[i]);
        for (int level = 0; level < kLevels; ++level) {
            Answer& a = learned[level][keys[i][level]];
            if (a.opAndPosition == value)
                ++a.agreeing;
        }
    }

    // Predict, and join continuing launches into one call per thread.
    std::vector<Call> calls;
    std::unordered_map<uint32_t, size_t> openCall; // thread -> index into calls + 1 (0: none)
    std::unordered_map<uint32_t, size_t> lastOnThread;
    for (size_t i = 0; i < launches.size(); ++i) {
        const Launch& l = launches[i];
        size_t& open = openCall[l.thread];
        if (l.op != 0) {
            open = 0;
            lastOnThread[l.thread] = i;
            continue;
        }
        uint64_t value = 0;
        for (int level = 0; level < kLevels; ++level) {
            const auto it = learned[level].find(keys[i][level]);
            if (it == learned[level].end())
                continue;
            if (it->second.agreeing >= kAgreement * it->second.total)
                value = it->second.opAndPosition;
            break; // the most specific context seen decides, even when it does not agree enough
        }
        if (value == 0) {
            open = 0;
            lastOnThread[l.thread] = i;
            continue;
        }
        const uint32_t op = static_cast<uint32_t>(value >> 1);
        const bool continues = value & 1;
        const auto last = lastOnThread.find(l.thread);
        if (continues && open != 0 && calls[open - 1].op == op && last != lastOnThread.end() &&
            calls[open - 1].last == last->second) {
            calls[open - 1].last = i;
        } else {
            calls.push_back(Call{op, i, i});
            open = calls.size();
        }
        lastOnThread[l.thread] = i;
    }
    return calls;
}

} // namespace ws
