#include "stored_sample.h"
#include "analysis/operator_table.h"
#include "analysis/operator_tree.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "operator_table_model.h"
#include "operator_table_view.h"
#include "store/session_store.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace ws;

namespace {

std::shared_ptr<const Session> sample() { return importTraceFile(WARPSCOPE_SAMPLE_TRACE).session; }

} // namespace

TEST(OperatorTableModel, SortsAndFiltersInCoreAndPassesTheModelTester) {
    std::shared_ptr<const Session> session = sample();
    ASSERT_NE(session, nullptr);
    auto tree = std::make_shared<const OperatorTree>(OperatorTree::build(*session));
    OperatorTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTable(session, tree,
                   std::make_shared<const OperatorTable>(OperatorTable::build(*session, *tree, OperatorGrouping::Name)));
    // 29 operator names in the bert sample (reference_ops.py).
    ASSERT_EQ(model.rowCount(), 29);
    EXPECT_EQ(model.columnCount(), static_cast<int>(kOperatorColumnCount));
    EXPECT_EQ(model.data(model.index(0, 0)).toString(), QStringLiteral("aten::addmm"));
    EXPECT_EQ(model.data(model.index(0, static_cast<int>(OperatorColumn::Calls))).toString(), QStringLiteral("26"));
    EXPECT_FALSE(model.headerData(0, Qt::Horizontal).toString().isEmpty());

    const QPersistentModelIndex first(model.index(0, 0));
    model.sort(static_cast<int>(OperatorColumn::HostSelf), Qt::DescendingOrder);
    ASSERT_TRUE(first.isValid());
    EXPECT_EQ(model.data(first).toString(), QStringLiteral("aten::addmm"));
    for (int r = 1; r < model.rowCount(); ++r)
        EXPECT_GE(model.rowAt(model.index(r - 1, 0))->hostSelfNs, model.rowAt(model.index(r, 0))->hostSelfNs);

    model.setNameFilter(QStringLiteral("ATEN::A"));
    ASSERT_GT(model.rowCount(), 0);
    ASSERT_LT(model.rowCount(), 29);
    for (int r = 0; r < model.rowCount(); ++r)
        EXPECT_TRUE(model.data(model.index(r, 0)).toString().startsWith(QStringLiteral("aten::a")));

    // Regrouping keeps sort and filter.
    model.setTable(session, tree,
                   std::make_shared<const OperatorTable>(
                       OperatorTable::build(*session, *tree, OperatorGrouping::NameAndInputShape)));
    ASSERT_GT(model.rowCount(), 0);
    for (int r = 1; r < model.rowCount(); ++r)
        EXPECT_GE(model.rowAt(model.index(r - 1, 0))->hostSelfNs, model.rowAt(model.index(r, 0))->hostSelfNs);
    model.setNameFilter({});
    EXPECT_EQ(model.rowAt(model.index(model.rowCount(), 0)), nullptr);
}

TEST(OperatorTableModel, CpuOnlyTraceShowsNotAvailableInsteadOfZero) {
    std::shared_ptr<const Session> session =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz")
            .session;
    ASSERT_NE(session, nullptr);
    auto tree = std::make_shared<const OperatorTree>(OperatorTree::build(*session));
    OperatorTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTable(session, tree,
                   std::make_shared<const OperatorTable>(OperatorTable::build(*session, *tree, OperatorGrouping::Name)));
    ASSERT_EQ(model.rowCount(), 1);
    const QString device = model.data(model.index(0, static_cast<int>(OperatorColumn::DeviceSelf))).toString();
    EXPECT_NE(device, QStringLiteral("0 ns"));
    EXPECT_FALSE(device.isEmpty());
}

TEST(OperatorTableView, FollowsTheSelectedRangeAndRevealsTheLongestCall) {
    std::shared_ptr<const Session> session = sample();
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OperatorTableView view(&time, session);
    view.resize(1280, 520);
    QSignalSpy reveal(&view, &OperatorTableView::revealRequested);
    view.buildNow();
    ASSERT_TRUE(view.isBuilt());
    auto* table = view.findChild<QTableView*>(QStringLiteral("operatorTable"));
    auto* header = view.findChild<QLabel*>(QStringLiteral("operatorHeader"));
    ASSERT_NE(table, nullptr);
    ASSERT_NE(header, nullptr);
    EXPECT_EQ(view.model()->rowCount(), 29);
    EXPECT_TRUE(table->isColumnHidden(static_cast<int>(OperatorColumn::InputShapes)));
    EXPECT_FALSE(table->isColumnHidden(static_cast<int>(OperatorColumn::DeviceSelf)));
    view.grab().save(QStringLiteral("/tmp/operator_table_by_name.png"));

    // Double-click: the longest aten::addmm call is selected on the timeline.
    const QModelIndex index = view.model()->index(0, 0);
    ASSERT_EQ(view.model()->data(index).toString(), QStringLiteral("aten::addmm"));
    emit table->doubleClicked(index);
    ASSERT_TRUE(time.selectedSlice().has_value());
    const Track& track = session->tracks()[time.selectedSlice()->track];
    EXPECT_EQ(session->str(track.names[time.selectedSlice()->slice]), "aten::addmm");
    const int64_t longest = track.dur[time.selectedSlice()->slice];
    const OperatorTree& tree = *view.model()->tree();
    for (uint32_t i = 0; i < tree.size(); ++i) {
        if (session->str(tree.node(i).name) == "aten::addmm") {
            EXPECT_LE(tree.hostNs(*session, i), longest);
        }
    }
    EXPECT_EQ(reveal.count(), 1);

    // A selected range regroups after the debounce, and the header says so.
    const int64_t mid = session->startNs() + (session->endNs() - session->startNs()) / 2;
    time.setSelectedRange(TimeRange{session->startNs(), mid});
    EXPECT_EQ(view.model()->table()->range().has_value(), false); // debounced, not yet
    QTRY_VERIFY_WITH_TIMEOUT(view.model()->table()->range().has_value(), 2000);
    EXPECT_LT(view.model()->table()->totalCalls(), 479u);
    EXPECT_TRUE(header->text().contains(QStringLiteral("selected range")));
    time.setSelectedRange(std::nullopt);
    QTRY_VERIFY_WITH_TIMEOUT(!view.model()->table()->range().has_value(), 2000);

    // Group by input shape: the shape columns appear.
    auto* group = view.findChild<QComboBox*>(QStringLiteral("operatorGrouping"));
    ASSERT_NE(group, nullptr);
    group->setCurrentIndex(1);
    EXPECT_FALSE(table->isColumnHidden(static_cast<int>(OperatorColumn::InputShapes)));
    EXPECT_GT(view.model()->rowCount(), 29);
    view.grab().save(QStringLiteral("/tmp/operator_table_by_shape.png"));
    group->setCurrentIndex(2);
    EXPECT_FALSE(table->isColumnHidden(static_cast<int>(OperatorColumn::CallStack)));
    view.grab().save(QStringLiteral("/tmp/operator_table_by_stack.png"));

    const QString csv = QStringLiteral("/tmp/warpscope_operator_table_test.csv");
    ASSERT_TRUE(view.exportCsv(csv));
    QFile file(csv);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readLine().startsWith("name,call_stack,calls,"));
    file.remove();
}

namespace {

// Every cell of every row, as the model shows them, in the default order.
std::vector<std::vector<QString>> cellsOf(const OperatorTableModel& model) {
    std::vector<std::vector<QString>> cells;
    for (int r = 0; r < model.rowCount(); ++r) {
        std::vector<QString> row;
        for (int c = 0; c < model.columnCount(); ++c)
            row.push_back(model.data(model.index(r, c), Qt::DisplayRole).toString());
        cells.push_back(std::move(row));
    }
    return cells;
}

} // namespace

TEST(OperatorTableView, AStoredSessionShowsItsStoredTableAtOnceThenTheComputedOne) {
    std::shared_ptr<const Session> imported = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    ASSERT_NE(imported, nullptr);
    QTemporaryDir dir;
    std::string error;
    std::shared_ptr<const Session> session = test::storedAndReadBack(*imported, dir, &error);
    ASSERT_NE(session, nullptr) << error;
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OperatorTableView view(&time, session);
    QSignalSpy built(&view, &OperatorTableView::built);
    view.show();
    // Before any event is processed (the worker cannot have delivered a tree): the file's table.
    ASSERT_TRUE(view.showsStoredTable());
    EXPECT_EQ(built.count(), 0);
    const std::vector<std::vector<QString>> stored = cellsOf(*view.model());
    ASSERT_GT(stored.size(), 10u);
    auto* header = view.findChild<QLabel*>(QStringLiteral("operatorHeader"));
    ASSERT_NE(header, nullptr);
    EXPECT_TRUE(header->text().contains(QStringLiteral("rows"))) << header->text().toStdString();

    view.buildNow();
    EXPECT_TRUE(view.isBuilt());
    EXPECT_FALSE(view.showsStoredTable());
    EXPECT_EQ(built.count(), 1);
    EXPECT_EQ(cellsOf(*view.model()), stored) << "the stored table is what computing gives";

    // An imported trace (no stored results) computes as before.
    OperatorTableView plain(&time, imported);
    plain.show();
    EXPECT_FALSE(plain.showsStoredTable());
}

namespace {

// A Kineto trace of `ops` nested operator pairs on one thread, each with Input Dims; `separator`
// puts the argument columns' separator byte into one argument, which leaves the session without them.
std::shared_ptr<const Session> manyOperators(const QTemporaryDir& dir, int ops, bool separator) {
    std::string json = "{\"traceEvents\":[";
    for (int i = 0; i < ops; ++i) {
        if (i)
            json += ',';
        const std::string ts = std::to_string(10 * i);
        json += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":1,\"tid\":1,\"ts\":" + ts +
                ",\"dur\":8,\"args\":{\"Input Dims\":[[4,8]]" +
                (separator && i == 0 ? ",\"Call stack\":\"a\\u001fb\"" : "") +
                "}},{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\",\"pid\":1,\"tid\":1,\"ts\":" + ts +
                ",\"dur\":4,\"args\":{\"Input Dims\":[[4,8],[8,8]]}}";
    }
    json += "]}";
    const QString path = dir.filePath(separator ? QStringLiteral("many_ops_separator.json") : QStringLiteral("many_ops.json"));
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(json.data(), static_cast<qint64>(json.size()));
    f.close();
    return importTraceFile(path.toStdString()).session;
}

// Whether the first tree the view delivers is already the complete one (the tree with arguments).
bool firstTreeIsComplete(const std::shared_ptr<const Session>& session) {
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OperatorTableView view(&time, session);
    bool complete = false;
    QObject::connect(&view, &OperatorTableView::built, [&] { complete = view.isBuilt(); });
    QSignalSpy built(&view, &OperatorTableView::built);
    view.show();
    EXPECT_TRUE(built.wait(30000));
    return complete;
}

} // namespace

// Issue #29: with argument columns the arguments cost a fraction of the tree, so a large session
// builds the complete tree once; without them (a separator byte in an argument here) the tree without
// arguments still comes first and the complete one replaces it.
TEST(OperatorTableView, ALargeSessionWithArgumentColumnsBuildsTheCompleteTreeOnce) {
    QTemporaryDir dir;
    const std::shared_ptr<const Session> withColumns = manyOperators(dir, 110000, false);
    ASSERT_NE(withColumns, nullptr);
    ASSERT_GE(withColumns->sliceCount(), 200000u); // past the view's worker threshold
    ASSERT_TRUE(withColumns->argColumns());
    EXPECT_TRUE(firstTreeIsComplete(withColumns));

    const std::shared_ptr<const Session> withoutColumns = manyOperators(dir, 110000, true);
    ASSERT_NE(withoutColumns, nullptr);
    ASSERT_FALSE(withoutColumns->argColumns());
    EXPECT_FALSE(firstTreeIsComplete(withoutColumns));
}
