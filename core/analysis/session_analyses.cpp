#include "analysis/session_analyses.h"

#include "analysis/kernel_table.h"
#include "analysis/session_results.h"
#include "model/session.h"

namespace ws {

SessionAnalyses::SessionAnalyses(std::shared_ptr<const Session> session) : m_session(std::move(session)) {}

template <typename T, typename Make>
std::shared_ptr<const T> SessionAnalyses::get(Cell<T>& cell, Make make) {
    std::lock_guard computing(cell.computing);
    if (auto ready = peek(cell))
        return ready;
    std::shared_ptr<const T> value = make();
    if (!value)
        return nullptr;
    std::lock_guard reading(cell.reading);
    cell.value = value;
    return value;
}

template <typename T>
std::shared_ptr<const T> SessionAnalyses::peek(const Cell<T>& cell) {
    std::lock_guard reading(cell.reading);
    return cell.value;
}

std::shared_ptr<const OverviewData> SessionAnalyses::overviewData() {
    return get(m_overview, [this] { return std::make_shared<const OverviewData>(prepareOverview(*m_session)); });
}

std::shared_ptr<const InferenceSteps> SessionAnalyses::inferenceSteps() {
    return get(m_inference, [this] { return makeInference(); })->steps;
}

std::shared_ptr<const Roofline> SessionAnalyses::roofline() {
    return get(m_inference, [this] { return makeInference(); })->roofline;
}

std::shared_ptr<const std::vector<PhaseIdleCauses>> SessionAnalyses::inferenceIdleCauses() {
    return get(m_idleCauses, [this] {
        return std::make_shared<const std::vector<PhaseIdleCauses>>(ws::inferenceIdleCauses(*m_session, *inferenceSteps()));
    });
}

std::shared_ptr<const SessionAnalyses::Inference> SessionAnalyses::makeInference() const {
    const KernelTable table = KernelTable::build(*m_session);
    auto out = std::make_shared<Inference>();
    auto steps = std::make_shared<const InferenceSteps>(InferenceSteps::build(*m_session, table));
    out->roofline = std::make_shared<const Roofline>(Roofline::build(*m_session, table, steps.get()));
    out->steps = std::move(steps);
    return out;
}

std::shared_ptr<const OperatorTree> SessionAnalyses::operatorTree(bool withArgs, const std::atomic<bool>* cancel) {
    if (!withArgs)
        if (auto full = peek(m_fullTree))
            return full;
    return get(withArgs ? m_fullTree : m_bareTree, [this, withArgs, cancel]() -> std::shared_ptr<const OperatorTree> {
        OperatorTreeOptions options;
        options.readArgs = withArgs;
        options.cancel = cancel;
        auto tree = std::make_shared<const OperatorTree>(OperatorTree::build(*m_session, options));
        return tree->cancelled() ? nullptr : tree;
    });
}

std::shared_ptr<const TraceSummary> SessionAnalyses::summary() {
    return get(m_summary, [this] { return std::make_shared<const TraceSummary>(summarizeSession(*m_session)); });
}

std::shared_ptr<const SessionResults> SessionAnalyses::storedResults() {
    return get(m_stored, [this]() -> std::shared_ptr<const SessionResults> {
        auto decoded = decodeSessionResults(m_session->storedResults(), *m_session);
        return decoded ? std::make_shared<const SessionResults>(std::move(*decoded)) : nullptr;
    });
}

std::shared_ptr<const OverviewData> SessionAnalyses::overviewDataIfReady() const { return peek(m_overview); }

std::shared_ptr<const OperatorTree> SessionAnalyses::operatorTreeIfReady(bool withArgs) const {
    if (auto full = peek(m_fullTree); full || withArgs)
        return full;
    return peek(m_bareTree);
}

} // namespace ws
