#pragma once

#include "analysis/inference_gaps.h"
#include "analysis/inference_steps.h"
#include "analysis/roofline.h"
#include "analysis/operator_tree.h"
#include "analysis/overview.h"
#include "analysis/trace_summary.h"

#include <atomic>
#include <memory>
#include <mutex>

namespace ws {

class Session;
struct SessionResults;

/*
 * SessionAnalyses: the whole-session analyses of one open session, computed once and shared by
 * everything that shows them. The Overview tab, the Operators tab and a Compare tab of the same
 * session ask it instead of each recomputing: comparing two sessions whose tabs already showed
 * their Overview and Operators only matches rows (issue #15's "≤ 1 s after both are open").
 *
 * Each result is computed on the first caller's thread (the views call from their workers);
 * concurrent callers of the same result wait for it rather than computing it twice. Results are
 * immutable and shared, so a caller keeps what it got even if the cache is dropped.
 */
class SessionAnalyses {
public:
    explicit SessionAnalyses(std::shared_ptr<const Session> session);

    const std::shared_ptr<const Session>& session() const { return m_session; }

    // The Overview's per-session data (prepareOverview): any window's report is computed from it.
    std::shared_ptr<const OverviewData> overviewData();
    // The operator tree. Without arguments (shapes, call stacks) the tree with them also serves,
    // once built, since the by-name grouping does not read them. Setting *cancel stops the
    // argument pass: null is returned and nothing is kept.
    std::shared_ptr<const OperatorTree> operatorTree(bool withArgs, const std::atomic<bool>* cancel = nullptr);
    // The run's LLM inference forwards (inference_steps.h), and its kernels against the GPU's peaks
    // (roofline.h) with the phases' MFU: both from one kernel table, which is not kept (136 bytes a
    // kernel: a view that needs the rows builds its own).
    std::shared_ptr<const InferenceSteps> inferenceSteps();
    std::shared_ptr<const Roofline> roofline();
    // Why the GPU idles in each inference phase (inference_gaps.h): the whole run's, whatever range
    // the Overview shows.
    std::shared_ptr<const std::vector<PhaseIdleCauses>> inferenceIdleCauses();
    // The headline numbers (summarizeSession): the session page's, and the distributed block's.
    std::shared_ptr<const TraceSummary> summary();
    // The results the session file carried (session_results.h), decoded once; null when it carried
    // none that describe this session (an imported trace, an older file, another version).
    std::shared_ptr<const SessionResults> storedResults();
    // What is there already, without computing (null when not yet).
    std::shared_ptr<const OverviewData> overviewDataIfReady() const;
    std::shared_ptr<const OperatorTree> operatorTreeIfReady(bool withArgs) const;

private:
    template <typename T>
    struct Cell {
        mutable std::mutex computing; // held while computing: a second caller waits for the first
        mutable std::mutex reading;   // guards value for the IfReady readers
        std::shared_ptr<const T> value;
    };
    // make() returns null when it was cancelled: nothing is kept.
    template <typename T, typename Make>
    static std::shared_ptr<const T> get(Cell<T>& cell, Make make);
    template <typename T>
    static std::shared_ptr<const T> peek(const Cell<T>& cell);
    struct Inference;
    std::shared_ptr<const Inference> makeInference() const;

    std::shared_ptr<const Session> m_session;
    Cell<OverviewData> m_overview;
    Cell<OperatorTree> m_bareTree; // readArgs = false
    Cell<OperatorTree> m_fullTree; // readArgs = true
    Cell<SessionResults> m_stored;
    Cell<TraceSummary> m_summary;
    struct Inference {
        std::shared_ptr<const InferenceSteps> steps;
        std::shared_ptr<const Roofline> roofline;
    };
    Cell<Inference> m_inference; // the inference steps and the roofline, made together
    Cell<std::vector<PhaseIdleCauses>> m_idleCauses;
};

} // namespace ws
