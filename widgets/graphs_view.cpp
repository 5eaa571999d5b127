#include "graphs_view.h"

#include "analysis/graph_csv.h"
#include "analysis/graph_replays.h"
#include "format.h"
#include "graph_node_model.h"
#include "graph_table_model.h"
#include "model/session.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <fstream>

namespace ws {

namespace {

QTableView* makeTable(QSortFilterProxyModel* proxy, const QString& name, QWidget* parent) {
    proxy->setSortRole(Qt::UserRole);
    auto* table = new QTableView(parent);
    table->setObjectName(name);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->hide();
    table->setWordWrap(false);
    return table;
}

} // namespace

GraphsView::GraphsView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent)
    : QWidget(parent), m_time(time), m_session(std::move(session)), m_graphModel(new GraphTableModel(this)),
      m_nodeModel(new GraphNodeModel(this)), m_graphProxy(new QSortFilterProxyModel(this)),
      m_nodeProxy(new QSortFilterProxyModel(this)), m_summary(new QLabel(this)), m_nodesTitle(new QLabel(this)) {
    m_graphProxy->setSourceModel(m_graphModel);
    m_nodeProxy->setSourceModel(m_nodeModel);
    m_graphTable = makeTable(m_graphProxy, QStringLiteral("graphTable"), this);
    m_nodeTable = makeTable(m_nodeProxy, QStringLiteral("graphNodeTable"), this);
    m_graphTable->setColumnWidth(GraphTableModel::CapturedAt, 300);
    m_nodeTable->setColumnWidth(GraphNodeModel::Name, 320);
    m_nodeTable->setColumnWidth(GraphNodeModel::Operator, 180);
    m_nodeTable->setColumnWidth(GraphNodeModel::Line, 160);
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("graphSummary"));
    auto* exportButton = new QPushButton(tr("Export CSV…"), this);
    exportButton->setObjectName(QStringLiteral("graphExportCsv"));

    connect(m_graphTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    selectGraph(static_cast<size_t>(m_graphProxy->mapToSource(current).row()));
            });
    connect(m_graphTable, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const int row = m_graphProxy->mapToSource(index).row();
        if (!m_replays || row < 0 || static_cast<size_t>(row) >= m_replays->graphs().size())
            return;
        const GraphRow& g = m_replays->graphs()[static_cast<size_t>(row)];
        if (g.launchTrack == GraphNodeRow::kNone)
            return;
        const SliceRef ref{g.launchTrack, g.launchSlice};
        m_time->setSelectedSlice(ref);
        emit revealRequested(ref);
    });
    connect(m_nodeTable, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const int node = m_nodeModel->nodeAt(m_nodeProxy->mapToSource(index).row());
        const QModelIndex current = m_graphProxy->mapToSource(m_graphTable->currentIndex());
        if (!m_replays || node < 0 || !current.isValid())
            return;
        const GraphNodeRow& n = m_replays->graphs()[static_cast<size_t>(current.row())].nodes[static_cast<size_t>(node)];
        if (index.column() == GraphNodeModel::Line && n.line > 0) {
            emit sourceRequested(QString::fromStdString(n.file), n.line, false);
            return;
        }
        const SliceRef ref{n.firstTrack, n.firstSlice};
        m_time->setSelectedSlice(ref);
        emit revealRequested(ref);
    });
    connect(exportButton, &QPushButton::clicked, this, &GraphsView::chooseExportFile);
    connect(m_time, &TimeViewport::selectedRangeChanged, this, [this] {
        if (m_built)
            rebuild();
    });

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_summary, 1);
    bar->addWidget(exportButton, 0, Qt::AlignTop);
    auto* nodes = new QWidget(this);
    auto* nodesLayout = new QVBoxLayout(nodes);
    nodesLayout->setContentsMargins(0, 0, 0, 0);
    nodesLayout->addWidget(m_nodesTitle);
    nodesLayout->addWidget(m_nodeTable, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_graphTable);
    split->addWidget(nodes);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
}

GraphsView::~GraphsView() = default;

void GraphsView::showEvent(QShowEvent* event) {
    computeNow();
    QWidget::showEvent(event);
}

void GraphsView::computeNow() {
    if (!m_built)
        rebuild();
}

void GraphsView::rebuild() {
    m_built = true;
    if (!m_session)
        return;
    GraphReplaysOptions options;
    if (const auto range = m_time->selectedRange()) {
        options.from = range->start;
        options.to = range->end;
    }
    m_replays = std::make_shared<const GraphReplays>(GraphReplays::build(*m_session, options));
    m_graphModel->setReplays(m_replays);
    m_graphTable->sortByColumn(GraphTableModel::Busy, Qt::DescendingOrder);
    m_graphTable->resizeColumnsToContents();
    m_graphTable->setColumnWidth(GraphTableModel::CapturedAt, std::max(300, m_graphTable->columnWidth(GraphTableModel::CapturedAt)));
    uint64_t replays = 0;
    for (const GraphRow& g : m_replays->graphs())
        replays += g.replays;
    if (m_replays->graphs().empty()) {
        m_summary->setText(m_time->selectedRange()
                               ? tr("No CUDA graph replays were launched in the selected range.")
                               : tr("No CUDA graph replays in this session. Programs that replay CUDA graphs "
                                    "(torch.cuda.graph, torch.compile with mode=\"reduce-overhead\", vLLM, SGLang) "
                                    "show each graph here with its replays and slowest nodes."));
    } else {
        const double attributed = m_replays->replayedActivities()
                                      ? static_cast<double>(m_replays->attributedActivities()) / m_replays->replayedActivities()
                                      : 0.0;
        QString text = tr("Graphs: %1. Replays: %2. Replayed kernels, copies and sets: %3, taking %4 of GPU time.")
                           .arg(formatCount(m_replays->graphs().size()), formatCount(replays),
                                formatCount(m_replays->replayedActivities()), formatDuration(m_replays->replayedNs()));
        text += QLatin1Char(' ');
        text += attributed > 0
                    ? tr("%1 of them carry the operator and line of the launch that captured them.").arg(formatPercent(attributed))
                    : tr("Where each node was captured is not in this trace (a Warpscope capture records it): nodes "
                         "are known by their place in the replay.");
        m_summary->setText(text);
    }
    if (m_graphProxy->rowCount() > 0)
        m_graphTable->setCurrentIndex(m_graphProxy->index(0, 0));
    else
        selectGraph(SIZE_MAX);
}

void GraphsView::selectGraph(size_t g) {
    m_nodeModel->setGraph(m_session, m_replays, g);
    m_nodeTable->sortByColumn(GraphNodeModel::Total, Qt::DescendingOrder);
    if (!m_replays || g >= m_replays->graphs().size()) {
        m_nodesTitle->clear();
        return;
    }
    const GraphRow& row = m_replays->graphs()[g];
    m_nodesTitle->setText(tr("Nodes of graph %1, slowest first (double-click a node to show it on the timeline, its "
                             "line to open the source)")
                              .arg(row.number));
}

bool GraphsView::exportCsv(const QString& path, QString* error) const {
    if (!m_replays) {
        *error = tr("The graphs are not computed yet.");
        return false;
    }
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    if (!out) {
        *error = tr("Cannot write %1.").arg(path);
        return false;
    }
    writeGraphNodeCsv(out, *m_session, *m_replays);
    out.flush();
    if (!out) {
        *error = tr("Writing %1 failed.").arg(path);
        return false;
    }
    return true;
}

void GraphsView::chooseExportFile() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Graph Nodes as CSV"), QStringLiteral("graphs.csv"),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace ws
