#include "kernel_table_view.h"

#include "analysis/kernel_table.h"
#include "kernel_table_model.h"
#include "model/session.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace ws {

KernelTableView::KernelTableView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent)
    : QWidget(parent), m_time(time), m_session(std::move(session)), m_model(new KernelTableModel(this)),
      m_filter(new QLineEdit(this)), m_table(new QTableView(this)) {
    m_filter->setPlaceholderText(tr("Filter by kernel name"));
    m_filter->setClearButtonEnabled(true);
    m_table->setObjectName(QStringLiteral("kernelTable"));
    m_table->setModel(m_model);
    // No sort indicator before enabling sorting: rows start in time order, unsorted.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    connect(m_filter, &QLineEdit::textChanged, m_model, &KernelTableModel::setNameFilter);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const KernelRow* row = m_model->kernelAt(index);
        if (!row)
            return;
        const SliceRef ref{row->track, row->slice};
        m_time->setSelectedSlice(ref);
        emit revealRequested(ref);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
}

void KernelTableView::ensureBuilt() {
    if (m_built || !m_session)
        return;
    m_built = true;
    m_model->setTable(m_session, std::make_shared<const KernelTable>(KernelTable::build(*m_session)));
}

void KernelTableView::showEvent(QShowEvent* event) {
    ensureBuilt();
    QWidget::showEvent(event);
}

} // namespace ws
