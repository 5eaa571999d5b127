#include "getting_started_dialog.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace ws {

namespace {

QString section(const QString& title, const QString& body) {
    return QStringLiteral("<h3 style='margin:14px 0 4px'>%1</h3>%2").arg(title, body);
}

QString item(const QString& name, const QString& text) {
    return QStringLiteral("<li><b>%1</b>: %2</li>").arg(name, text);
}

} // namespace

GettingStartedDialog::GettingStartedDialog(QWidget* parent) : QDialog(parent), m_text(new QTextBrowser(this)) {
    setWindowTitle(tr("Getting Started"));
    setObjectName(QStringLiteral("gettingStartedDialog"));
    m_text->setObjectName(QStringLiteral("gettingStartedText"));
    m_text->setOpenLinks(false);
    m_text->setHtml(guideHtml(readmePath()));
    // The README's sections open in the user's viewer for .md files.
    connect(m_text, &QTextBrowser::anchorClicked, this, [](const QUrl& url) { QDesktopServices::openUrl(url); });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(760, 720);
}

QString GettingStartedDialog::readmePath() {
    const QString appDir = QCoreApplication::applicationDirPath();
    for (const QString& candidate : {appDir + QStringLiteral("/../share/doc/warpscope/README.md"),
                                     QStringLiteral(WARPSCOPE_SOURCE_SAMPLES_DIR "/../../README.md")}) {
        const QFileInfo file(candidate);
        if (file.isFile())
            return file.canonicalFilePath();
    }
    return {};
}

QString GettingStartedDialog::guideHtml(const QString& readme) {
    QString html = QStringLiteral("<h2 style='margin:4px 0'>%1</h2><p>%2</p>")
                       .arg(tr("Getting Started"),
                            tr("A profiler records what your program did, moment by moment: which functions ran on "
                               "the CPU, which kernels (small programs) ran on the GPU, and how much memory was in "
                               "use. Warpscope shows that record so you can see where the time goes and what to "
                               "change."));
    html += section(
        tr("1. Record your program"),
        tr("<p>Choose <b>File &gt; New Capture…</b> (Ctrl+N), pick your script, for example <tt>python "
           "train.py</tt>, and press Start. Warpscope runs it under NVIDIA's CUPTI; your code does not change. "
           "Tick <i>Python call stacks of launches</i> to see which line launched each kernel, and set <i>PyTorch "
           "operators</i> to see the operators.</p><p>On the command line, or on a GPU server over SSH: <tt>warpscope-capture -o "
           "run1 -- python train.py</tt>, then <tt>warpscope run1</tt>; <tt>warpscope-capture --host gpu7 -o run1 "
           "-- python train.py</tt> records on the machine <tt>gpu7</tt>.</p>"));
    html += section(
        tr("2. Or open a trace you already have"),
        tr("<p><b>File &gt; Open…</b> (Ctrl+O), or drop the file onto the window. A PyTorch profiler trace "
           "(<tt>prof.export_chrome_trace(\"trace.json\")</tt>; record with <tt>with_stack=True</tt> for source "
           "lines), an Nsight Systems export or report, a memory snapshot, and the other formats the welcome page "
           "lists. <b>File &gt; Open URL…</b> reads from S3, Google Cloud Storage, Azure or a web server. Every "
           "trace you open is kept in the <b>Session Library</b> and reopens instantly.</p>"));
    html += section(tr("3. Read the timeline"),
                    tr("<p>The top half is the timeline: CPU threads above, GPU streams below, time left to right. "
                       "Ctrl+wheel zooms, dragging pans, <tt>0</tt> shows everything. Click a slice to select it; "
                       "drag on the ruler to select a range, and every tab below follows that range. An arrow "
                       "joins a CPU call to the GPU work it launched.</p>"));
    QString tabs = QStringLiteral("<ul style='margin:0'>");
    tabs += item(tr("Summary"), tr("the headline numbers: kernels, copies, steps, GPU utilization."));
    tabs += item(tr("Overview"), tr("how busy each GPU was, what each training step spent its time on, "
                                    "recommendations, and <i>why the GPU waits</i>: what the program did while "
                                    "the GPU had nothing to do."));
    tabs += item(tr("Details"), tr("the selected slice: its arguments, its Python call stack and what it is linked to."));
    tabs += item(tr("Range"), tr("what ran inside the selected range, by name."));
    tabs += item(tr("Stack"), tr("the frames behind the selection and the source of each, with the GPU time "
                                 "spent on each line."));
    tabs += item(tr("Flame Graph"), tr("which code paths cost the most GPU time, CPU time or memory; wide boxes "
                                       "are expensive. Dispatch frames are folded so your model's code comes first."));
    tabs += item(tr("Bookmarks"), tr("moments you marked with B on the timeline, with your notes; kept with the session."));
    tabs += item(tr("Kernels"), tr("every GPU kernel with its time, shapes, launch geometry and the operator "
                                   "and line that launched it."));
    tabs += item(tr("Graphs"), tr("CUDA graph replays and their slowest nodes."));
    tabs += item(tr("Roofline"), tr("whether kernels are limited by compute or by memory bandwidth, and how "
                                    "much of the GPU's peak the model uses."));
    tabs += item(tr("Operators"), tr("PyTorch operators by time on the CPU and the GPU."));
    tabs += item(tr("Memory"), tr("memory in use over time, the peak, and what allocated it."));
    tabs += item(tr("Query"), tr("SQL over everything recorded."));
    tabs += QStringLiteral("</ul><p>%1</p>")
                .arg(tr("A tab can fill the window: double-click its name or press Ctrl+Shift+M."));
    html += section(tr("4. What each tab answers"), tabs);
    if (!readme.isEmpty()) {
        const QString url = QUrl::fromLocalFile(readme).toString();
        QString links = QStringLiteral("<ul style='margin:0'>");
        for (const QString& name : {tr("Using it"), tr("Formats"), tr("Traces in object storage and on web servers"),
                                    tr("Asking questions: SQL, Python and coding agents"), tr("Comparing two runs"),
                                    tr("Distributed jobs from the command line")})
            links += QStringLiteral("<li><a href='%1'>README.md</a> — %2</li>").arg(url, name.toHtmlEscaped());
        html += section(tr("5. More in the README"), links + QStringLiteral("</ul>"));
    }
    return html;
}

} // namespace ws
