#include "job_page.h"

#include "distributed_view.h"
#include "job_loader.h"
#include "job_timeline_view.h"

#include <QFileInfo>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace ws {

JobPage::JobPage(std::shared_ptr<const LoadedJob> job, QWidget* parent)
    : QWidget(parent), m_job(std::move(job)), m_offsets(m_job->clock.offsetNs) {
    setObjectName(QStringLiteral("jobPage"));
    m_timeline = new JobTimelineView(this);
    m_selectionLabel = new QLabel(this);
    m_selectionLabel->setObjectName(QStringLiteral("jobSelection"));
    m_selectionLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_selectionLabel->setText(tr("Click a communication op to link it across ranks; drag on the ruler to select a range."));
    m_distributed = new DistributedView(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("jobTabs"));
    m_tabs->addTab(m_distributed, tr("Distributed"));

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(2);
    topLayout->addWidget(m_timeline, 1);
    topLayout->addWidget(m_selectionLabel);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_timeline, &JobTimelineView::selectionChanged, m_selectionLabel, &QLabel::setText);
    connect(m_timeline, &JobTimelineView::rangeSelected, m_distributed, &DistributedView::setRange);
    connect(m_timeline, &JobTimelineView::offsetEdited, this, [this](size_t worker, int64_t offset) {
        if (worker < m_offsets.size()) {
            m_offsets[worker] = offset;
            applyOffsets();
        }
    });
    connect(m_timeline, &JobTimelineView::compareRequested, this, &JobPage::compareRanksRequested);
    connect(m_timeline, &JobTimelineView::offsetsResetRequested, this, [this] {
        m_offsets = m_job->clock.offsetNs;
        applyOffsets();
    });
    connect(m_distributed, &DistributedView::openTraceRequested, this, &JobPage::openTraceRequested);
    m_distributed->setJob(m_job, m_offsets);
    m_timeline->setJob(m_job, m_offsets);
}

void JobPage::applyOffsets() {
    m_timeline->setOffsets(m_offsets);
    m_distributed->setOffsets(m_offsets);
}

QString JobPage::title() const {
    QString base = m_job->inputs.size() == 1 ? QFileInfo(m_job->inputs.front()).fileName() : QString();
    if (base.isEmpty())
        base = tr("job");
    return tr("%1 (%n rank(s))", nullptr, static_cast<int>(m_job->ranks.size())).arg(base);
}

} // namespace ws
