#include "range_summary_view.h"

#include "format.h"
#include "range_summary_model.h"
#include "time_viewport.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace ws {

RangeSummaryView::RangeSummaryView(TimeViewport* timeViewport, QWidget* parent)
    : QWidget(parent), m_time(timeViewport), m_header(new QLabel(this)), m_model(new RangeSummaryModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView(this)) {
    setObjectName(QStringLiteral("rangeSummary"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RangeSummaryModel::Total, Qt::DescendingOrder);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(RangeSummaryModel::Name, QHeaderView::Stretch);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_header);
    layout->addWidget(m_table, 1);
    connect(m_time, &TimeViewport::selectedRangeChanged, this, &RangeSummaryView::refresh);
    refresh();
}

void RangeSummaryView::setSession(std::shared_ptr<const Session> session) {
    m_session = std::move(session);
    refresh();
}

void RangeSummaryView::refresh() {
    const auto range = m_time->selectedRange();
    if (!m_session || !range) {
        m_model->setSummary(m_session, {});
        m_header->setText(tr("Drag across the time ruler to summarize a range."));
        return;
    }
    auto rows = summarizeRange(*m_session, range->start, range->end);
    m_header->setText(tr("%1 to %2 (%3): %n distinct name(s)", nullptr, static_cast<int>(rows.size()))
                          .arg(formatDuration(range->start - m_time->sessionStart()),
                               formatDuration(range->end - m_time->sessionStart()), formatDuration(range->length())));
    m_model->setSummary(m_session, std::move(rows));
}

} // namespace ws
