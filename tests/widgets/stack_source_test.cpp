#include "analysis/line_totals.h"
#include "format.h"
#include "frame_folding_settings.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "session_loader.h"
#include "session_page.h"
#include "settings_dialog.h"
#include "slice_details_view.h"
#include "source_highlighter.h"
#include "source_pane.h"
#include "source_settings.h"
#include "source_text_view.h"
#include "store/session_store.h"
#include "stack_source_view.h"
#include "stack_view.h"
#include "time_viewport.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTreeWidget>
#include <gtest/gtest.h>

using namespace ws;

namespace {

/* Keeps SourceSettings (QSettings) in a scratch folder for each test. */
class StackSourceTest : public ::testing::Test {
protected:
    void SetUp() override {
        const QFileInfo file(QSettings().fileName());
        m_base = QCoreApplication::organizationName().isEmpty()
                     ? file.absolutePath()
                     : QFileInfo(file.absolutePath()).absolutePath();
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    }
    void TearDown() override { QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_base); }

    QTemporaryDir m_settings;
    QString m_base;
};

QString writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    return path;
}

QByteArray numberedPython(int lines) {
    QByteArray out;
    for (int i = 1; i <= lines; ++i)
        out += "x" + QByteArray::number(i) + " = " + QByteArray::number(i) + "  # line\n";
    return out;
}

} // namespace

TEST_F(StackSourceTest, StackTabShowsKernelStackOfSample) {
    auto loaded = std::make_shared<LoadedSession>();
    loaded->path = QStringLiteral(WARPSCOPE_SAMPLE_TRACE);
    loaded->session = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    ASSERT_NE(loaded->session, nullptr);
    SessionPage page(loaded);
    auto* view = page.findChild<StackSourceView*>();
    ASSERT_NE(view, nullptr);
    view->stackView()->setHidingDispatchFrames(false); // every frame, one row each
    const Session& s = *loaded->session;
    // The first kernel whose stack reaches a Python source line.
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& t = s.tracks()[ti];
        for (uint32_t i = 0; i < t.sliceCount(); ++i) {
            if (s.kindOf(t, i) != EventKind::Kernel) continue;
            page.timeViewport()->setSelectedSlice(SliceRef{ti, i});
            const CallStack& st = view->stackView()->stack();
            if (st.firstSourceFrame < 0) continue;
            QTreeWidget* tree = view->stackView()->tree();
            ASSERT_EQ(tree->topLevelItemCount(), static_cast<int>(st.frames.size()));
            EXPECT_EQ(tree->topLevelItem(0)->text(1), QString::fromStdString(std::string(s.str(t.names[i]))));
            EXPECT_EQ(view->stackView()->currentFrame(), st.firstSourceFrame);
            const StackFrame& f = st.frames[static_cast<size_t>(st.firstSourceFrame)];
            EXPECT_EQ(tree->topLevelItem(st.firstSourceFrame)->text(3), QString::number(f.line));
            // The pane was asked for that frame (the file is from the recording machine).
            EXPECT_EQ(view->sourcePane()->recordedFile(), QString::fromStdString(f.file));
            EXPECT_EQ(view->sourcePane()->line(), f.line);
            // Issue #51: dispatch frames hidden (nn.Module's _call_impl here), the rest in order,
            // the selection kept; the choice is saved for the next stack and the flame graph.
            int dispatch = 0, callImpl = 0, outermostPython = -1;
            for (size_t k = 0; k < st.frames.size(); ++k)
                if (st.frames[k].kind == StackFrameKind::Python) outermostPython = static_cast<int>(k);
            for (size_t k = 0; k < st.frames.size(); ++k) {
                const StackFrame& frame = st.frames[k];
                callImpl += frame.function == "_call_impl" ? 1 : 0;
                dispatch += frame.kind == StackFrameKind::Python && static_cast<int>(k) != outermostPython &&
                                    FrameFolding::defaults().folds(frame.function)
                                ? 1
                                : 0;
            }
            ASSERT_GT(callImpl, 0);
            ASSERT_GE(dispatch, callImpl);
            view->stackView()->setHidingDispatchFrames(true);
            EXPECT_EQ(view->stackView()->hiddenFrameCount(), dispatch);
            ASSERT_EQ(tree->topLevelItemCount(), static_cast<int>(st.frames.size()) - dispatch);
            for (int row = 0; row < tree->topLevelItemCount(); ++row)
                EXPECT_NE(tree->topLevelItem(row)->text(1), QStringLiteral("_call_impl"));
            EXPECT_EQ(view->stackView()->currentFrame(), st.firstSourceFrame);
            EXPECT_TRUE(FrameFoldingSettings::load().enabled);
            view->stackView()->setHidingDispatchFrames(false);
            EXPECT_FALSE(FrameFoldingSettings::load().enabled);
            EXPECT_EQ(tree->topLevelItemCount(), static_cast<int>(st.frames.size()));
            page.timeViewport()->setSelectedSlice(std::nullopt);
            EXPECT_EQ(tree->topLevelItemCount(), 0);
            return;
        }
    }
    FAIL() << "no kernel with a Python source frame";
}

// A stack without a source line says how to record one, in the words of what recorded the session:
// torch.profiler's with_stack=True, or the capture's Python stacks (issue #25).
TEST_F(StackSourceTest, NoSourceHintNamesTheRecordersOption) {
    struct Case {
        QString file;
        QString hint, notHint;
    };
    const Case cases[] = {
        {QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/captures/transformer_plain.wscap.gz"), QStringLiteral("--py-stacks"),
         QStringLiteral("with_stack")},
        // torch.profiler (CPU + CUDA) without with_stack: operators, no source lines.
        {QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/captures/transformer_prof6.json.gz"), QStringLiteral("with_stack=True"),
         QStringLiteral("--py-stacks")},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file.toStdString());
        std::shared_ptr<const Session> session = importTraceFile(c.file.toStdString()).session;
        ASSERT_NE(session, nullptr);
        StackView view;
        view.setSession(session);
        auto* header = view.findChild<QLabel*>(QStringLiteral("stackHeader"));
        ASSERT_NE(header, nullptr);
        bool found = false;
        for (uint32_t ti = 0; ti < session->tracks().size() && !found; ++ti) {
            const Track& t = session->tracks()[ti];
            for (uint32_t i = 0; i < t.sliceCount() && !found; ++i) {
                if (session->kindOf(t, i) != EventKind::Kernel)
                    continue;
                view.setSlice(SliceRef{ti, i});
                found = !view.stack().frames.empty() && view.stack().firstSourceFrame < 0;
            }
        }
        ASSERT_TRUE(found) << "no kernel stack without a source line";
        EXPECT_TRUE(header->text().contains(c.hint)) << header->text().toStdString();
        EXPECT_FALSE(header->text().contains(c.notHint)) << header->text().toStdString();
    }
}

TEST_F(StackSourceTest, SourcePaneMarksTheLineAndFollowsPathRules) {
    QTemporaryDir dir;
    const QString local =
        writeFile(dir.filePath(QStringLiteral("home/src/proj/m/model.py")), numberedPython(200));
    SourceSettings settings;
    settings.pathRules = {{"/workspace/proj", dir.filePath(QStringLiteral("home/src/proj")).toStdString()}};
    settings.save();

    SourcePane pane;
    pane.resize(600, 400);
    pane.show();
    ASSERT_TRUE(pane.showLocation(QStringLiteral("/workspace/proj/m/model.py"), 120));
    EXPECT_EQ(pane.resolvedFile(), local);
    EXPECT_FALSE(pane.isMissing());
    QPlainTextEdit* text = pane.editor();
    EXPECT_EQ(text->document()->blockCount(), 201);
    EXPECT_EQ(text->textCursor().blockNumber(), 119);
    const auto marks = text->extraSelections();
    ASSERT_EQ(marks.size(), 1);
    EXPECT_EQ(marks[0].cursor.block().text(), QStringLiteral("x120 = 120  # line"));
    // Neighbouring lines are visible: the marked line is scrolled into the middle.
    const QRect r = text->cursorRect();
    EXPECT_GT(r.top(), text->viewport()->height() / 4);
    EXPECT_LT(r.bottom(), text->viewport()->height());

    // Trace recorded long after the file was written: no warning; long before: a warning.
    pane.setTraceTime(QDateTime::currentMSecsSinceEpoch() * 1'000'000 + 3'600'000'000'000LL);
    pane.showLocation(QStringLiteral("/workspace/proj/m/model.py"), 3);
    EXPECT_FALSE(pane.isStale());
    pane.setTraceTime(int64_t(1'000'000) * 1'000'000'000LL); // 1970-01-12
    pane.showLocation(QStringLiteral("/workspace/proj/m/model.py"), 3);
    EXPECT_TRUE(pane.isStale());
    EXPECT_FALSE(pane.findChild<QLabel*>(QStringLiteral("sourceStaleWarning"))->isHidden());
}

TEST_F(StackSourceTest, GutterShowsPerLineTotals) {
    // The sample's python frames name files relative to site-packages; a rule maps them here.
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("site/transformers/models/bert/modeling_bert.py")), numberedPython(1100));
    SourceSettings settings;
    settings.pathRules = {{"transformers", dir.filePath(QStringLiteral("site/transformers")).toStdString()}};
    settings.save();
    auto session = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    ASSERT_NE(session, nullptr);
    auto totals = std::make_shared<const LineTotals>(LineTotals::compute(*session));
    const auto* lines = totals->forFile("transformers/models/bert/modeling_bert.py");
    ASSERT_NE(lines, nullptr);
    ASSERT_TRUE(lines->count(1001));

    SourcePane pane;
    pane.resize(700, 400);
    pane.show();
    ASSERT_TRUE(pane.showLocation(QStringLiteral("transformers/models/bert/modeling_bert.py"), 1001));
    auto* text = qobject_cast<SourceTextView*>(pane.editor());
    ASSERT_NE(text, nullptr);
    const int plainGutter = text->gutterWidth();
    EXPECT_TRUE(text->lineNotes().isEmpty());
    pane.setLineTotals(totals);
    // One note per line with a cost; line 1001 ran kernels and allocated (see line_totals_test).
    EXPECT_EQ(text->lineNotes().size(), static_cast<qsizetype>(lines->size()));
    const QString note = text->lineNotes().value(1001);
    EXPECT_TRUE(note.contains(formatDuration(lines->at(1001).kernelNs))) << note.toStdString();
    EXPECT_TRUE(note.contains(formatBytes(lines->at(1001).allocatedBytes))) << note.toStdString();
    EXPECT_GT(text->gutterWidth(), plainGutter);
    EXPECT_FALSE(text->lineNotes().contains(1)); // nothing ran under line 1
}

TEST_F(StackSourceTest, MissingFileIsShownFromTheSessionsStoredCopy) {
    QTemporaryDir dir;
    const QString source = writeFile(dir.filePath(QStringLiteral("job/train.py")), numberedPython(30));
    const std::string trace = R"({"traceEvents":[{"ph":"X","cat":"python_function","name":")" + source.toStdString() +
                              R"((12): main","pid":1,"tid":1,"ts":0,"dur":10}]})";
    const QString tracePath = writeFile(dir.filePath(QStringLiteral("trace.json")), QByteArray::fromStdString(trace));
    auto session = importTraceFile(tracePath.toStdString()).session;
    ASSERT_NE(session, nullptr);
    const QString stored = dir.filePath(QStringLiteral("s.warpscope"));
    std::string error;
    ASSERT_TRUE(SessionStore::write(*session, stored.toStdString(), {}, &error)) << error;
    ASSERT_TRUE(QFile::remove(source));

    SourcePane pane;
    EXPECT_FALSE(pane.showLocation(source, 12)); // gone, and no session file to fall back on
    pane.setSessionFile(stored);
    ASSERT_TRUE(pane.showLocation(source, 12));
    EXPECT_TRUE(pane.isFromArchive());
    EXPECT_FALSE(pane.isMissing());
    EXPECT_EQ(pane.editor()->document()->blockCount(), 31);
    EXPECT_EQ(pane.editor()->textCursor().block().text(), QStringLiteral("x12 = 12  # line"));
    EXPECT_FALSE(pane.findChild<QLabel*>(QStringLiteral("sourceStaleWarning"))->isHidden());
}

TEST_F(StackSourceTest, MissingFileOffersLocateAndRemembersTheMapping) {
    QTemporaryDir dir;
    const QString local = writeFile(dir.filePath(QStringLiteral("checkout/proj/a/b.py")), numberedPython(10));
    SourcePane pane;
    EXPECT_FALSE(pane.showLocation(QStringLiteral("/nonexistent-ws/proj/a/b.py"), 4));
    EXPECT_TRUE(pane.isMissing());
    EXPECT_FALSE(pane.findChild<QWidget*>(QStringLiteral("sourceLocate"))->isHidden());
    pane.locateAs(local);
    EXPECT_FALSE(pane.isMissing());
    EXPECT_EQ(pane.resolvedFile(), local);
    const SourceSettings saved = SourceSettings::load();
    ASSERT_EQ(saved.pathRules.size(), 1u);
    EXPECT_EQ(saved.pathRules[0].from, "/nonexistent-ws");
    // Another file of the same tree is found through the learned rule.
    writeFile(dir.filePath(QStringLiteral("checkout/proj/c.py")), "pass\n");
    SourcePane other;
    EXPECT_TRUE(other.showLocation(QStringLiteral("/nonexistent-ws/proj/c.py"), 1));
}

TEST_F(StackSourceTest, HighlighterPicksLanguageByExtension) {
    EXPECT_EQ(SourceHighlighter::languageForFile(QStringLiteral("/a/b.py")),
              SourceHighlighter::Language::Python);
    EXPECT_EQ(SourceHighlighter::languageForFile(QStringLiteral("k.cu")), SourceHighlighter::Language::Cpp);
    EXPECT_EQ(SourceHighlighter::languageForFile(QStringLiteral("k.cuh")), SourceHighlighter::Language::Cpp);
    EXPECT_EQ(SourceHighlighter::languageForFile(QStringLiteral("x.hpp")), SourceHighlighter::Language::Cpp);
    EXPECT_EQ(SourceHighlighter::languageForFile(QStringLiteral("README")),
              SourceHighlighter::Language::Plain);
    QTextDocument doc;
    SourceHighlighter h(&doc);
    h.setLanguage(SourceHighlighter::Language::Python);
    doc.setPlainText(QStringLiteral("def f():  # c\n    return \"#x\"\n"));
    h.rehighlight();
    // Line 1: "def" keyword and a comment; line 2: the '#' inside the string is not a comment.
    const auto first = doc.firstBlock().layout()->formats();
    ASSERT_EQ(first.size(), 2);
    EXPECT_EQ(first[0].start, 0);
    EXPECT_EQ(first[0].length, 3);
    EXPECT_EQ(first[1].start, 10);
    EXPECT_TRUE(first[1].format.fontItalic());
    const auto second = doc.firstBlock().next().layout()->formats();
    ASSERT_EQ(second.size(), 2);
    EXPECT_EQ(second[1].start, 11);
    EXPECT_EQ(second[1].length, 4);
    EXPECT_FALSE(second[1].format.fontItalic());
    // A ''' docstring spans lines.
    doc.setPlainText(QStringLiteral("x = 1\n    \'\'\'doc\n# not a comment\n    \'\'\'\ny = 2\n"));
    h.rehighlight();
    const QTextBlock inside = doc.findBlockByNumber(2);
    const auto insideFormats = inside.layout()->formats();
    ASSERT_EQ(insideFormats.size(), 1);
    EXPECT_EQ(insideFormats[0].length, inside.length() - 1);
    EXPECT_FALSE(insideFormats[0].format.fontItalic());
    EXPECT_EQ(doc.findBlockByNumber(4).userState(), 0);
}

TEST_F(StackSourceTest, SettingsDialogStoresEditorAndRules) {
    {
        SettingsDialog dialog;
        const int custom = dialog.editorCombo()->findData(QStringLiteral("custom"));
        ASSERT_GE(custom, 0);
        dialog.editorCombo()->setCurrentIndex(dialog.editorCombo()->findData(QStringLiteral("clion")));
        EXPECT_EQ(dialog.templateEdit()->text(), QStringLiteral("clion --line %l --column %c %f"));
        EXPECT_TRUE(dialog.templateEdit()->isReadOnly());
        dialog.editorCombo()->setCurrentIndex(custom);
        dialog.templateEdit()->setText(QStringLiteral("'/opt/my ed/bin/ed' +%l %f"));
        EXPECT_EQ(dialog.preview()->text(), QStringLiteral("[/opt/my ed/bin/ed] [+42] [/path/to/model.py]"));
        QTableWidget* rules = dialog.rulesTable();
        rules->insertRow(0);
        rules->setItem(0, 0, new QTableWidgetItem(QStringLiteral("/workspace/proj")));
        rules->setItem(0, 1, new QTableWidgetItem(QStringLiteral("~/src/proj")));
        dialog.accept();
    }
    const SourceSettings s = SourceSettings::load();
    EXPECT_EQ(s.editorId, QStringLiteral("custom"));
    EXPECT_EQ(s.commandTemplate(), QStringLiteral("'/opt/my ed/bin/ed' +%l %f"));
    ASSERT_EQ(s.pathRules.size(), 1u);
    EXPECT_EQ(s.pathRules[0].to, "~/src/proj");
    SettingsDialog again;
    EXPECT_EQ(again.rulesTable()->rowCount(), 1);
    EXPECT_EQ(again.templateEdit()->text(), QStringLiteral("'/opt/my ed/bin/ed' +%l %f"));
}

// Issue #51: the Details pane shows a `Call stack` argument as a list of frames, not one
// semicolon-joined string; a frame's link shows its source in the Stack tab's pane.
TEST_F(StackSourceTest, DetailsPaneListsTheCallStackFrames) {
    auto loaded = std::make_shared<LoadedSession>();
    loaded->path = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/inference/hf_eager_stacks.wscap.gz");
    loaded->session = importTraceFile(loaded->path.toStdString()).session;
    ASSERT_NE(loaded->session, nullptr);
    const Session& s = *loaded->session;
    std::optional<SliceRef> withStack;
    for (uint32_t ti = 0; ti < s.tracks().size() && !withStack; ++ti) {
        const Track& t = s.tracks()[ti];
        for (uint32_t i = 0; i < t.sliceCount() && !withStack; ++i)
            if (s.kindOf(t, i) == EventKind::Runtime && s.eventJson(t, i).find("\"Call stack\"") != std::string::npos)
                withStack = SliceRef{ti, i};
    }
    ASSERT_TRUE(withStack);
    SessionPage page(loaded);
    page.timeViewport()->setSelectedSlice(*withStack);
    SliceDetailsView* details = page.details();
    const std::vector<StackFrameText>& frames = details->stackFrames();
    ASSERT_GE(frames.size(), 5u);
    const QString html = details->toHtml();
    EXPECT_TRUE(html.contains(QStringLiteral("frame:0")));
    EXPECT_FALSE(details->toPlainText().contains(QStringLiteral(");"))) << "still one joined string";
    int first = -1;
    for (size_t i = 0; i < frames.size() && first < 0; ++i)
        if (!frames[i].file.empty()) first = static_cast<int>(i);
    ASSERT_GE(first, 0);
    details->activateFrame(first, false);
    auto* stack = page.findChild<StackSourceView*>();
    ASSERT_NE(stack, nullptr);
    auto* tabs = page.findChild<QTabWidget*>();
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->currentWidget(), stack);
    EXPECT_EQ(stack->sourcePane()->recordedFile(), QString::fromStdString(frames[static_cast<size_t>(first)].file));
    EXPECT_EQ(stack->sourcePane()->line(), frames[static_cast<size_t>(first)].line);
}
