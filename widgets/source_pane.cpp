#include "source_pane.h"

#include "analysis/line_totals.h"
#include "format.h"
#include "source_text_view.h"

#include "source/path_mapping.h"
#include "store/source_archive.h"
#include "source_highlighter.h"
#include "source_settings.h"

#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTextBlock>
#include <QVBoxLayout>

namespace ws {

namespace {

// Larger files are shown only up to this size: a source pane is for reading a function, and a
// multi-megabyte generated file would stall the highlighter.
constexpr qint64 kMaxSourceBytes = 8 * 1024 * 1024;

} // namespace

SourcePane::SourcePane(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_warning(new QLabel(this)),
      m_missingBox(new QWidget(this)), m_missingText(new QLabel(m_missingBox)),
      m_locate(new QPushButton(tr("Locate…"), m_missingBox)), m_text(new SourceTextView(this)),
      m_highlighter(new SourceHighlighter(m_text->document())) {
    setObjectName(QStringLiteral("sourcePane"));
    m_text->setObjectName(QStringLiteral("sourceText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_title->setText(tr("No source shown. Select a frame and press Enter."));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warning->setObjectName(QStringLiteral("sourceStaleWarning"));
    m_warning->setStyleSheet(QStringLiteral("color: #a05a00;"));
    m_warning->setWordWrap(true);
    m_warning->hide();
    m_missingText->setWordWrap(true);
    m_locate->setObjectName(QStringLiteral("sourceLocate"));
    auto* missingLayout = new QHBoxLayout(m_missingBox);
    missingLayout->setContentsMargins(0, 0, 0, 0);
    missingLayout->addWidget(m_missingText, 1);
    missingLayout->addWidget(m_locate);
    m_missingBox->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_warning);
    layout->addWidget(m_missingBox);
    layout->addWidget(m_text, 1);

    connect(m_locate, &QPushButton::clicked, this, &SourcePane::locate);
    for (QKeySequence key :
         {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto* sc = new QShortcut(key, m_text);
        sc->setContext(Qt::WidgetShortcut);
        connect(sc, &QShortcut::activated, this, &SourcePane::openInEditor);
    }
}

bool SourcePane::showLocation(const QString& recordedFile, int line) {
    m_recordedFile = recordedFile;
    m_line = line;
    m_stale = false;
    m_warning->hide();
    const SourceSettings settings = SourceSettings::load();
    const auto resolved = resolveSourcePath(recordedFile.toStdString(), settings.pathRules, homeDirectory());
    m_missing = !resolved;
    m_fromArchive = false;
    if (!resolved && showStoredCopy())
        return true;
    if (!resolved) {
        m_resolvedFile.clear();
        m_text->clear();
        m_title->setText(tr("%1, line %2").arg(recordedFile).arg(line));
        m_missingText->setText(tr("The file is not on this machine (no path substitution rule finds it). "
                                  "Locate it to add a rule for its folder."));
        m_missingBox->show();
        return false;
    }
    m_missingBox->hide();
    m_resolvedFile = QString::fromStdString(*resolved);
    QFile f(m_resolvedFile);
    QString text;
    if (f.open(QIODevice::ReadOnly)) text = QString::fromUtf8(f.read(kMaxSourceBytes));
    m_highlighter->setLanguage(SourceHighlighter::languageForFile(m_resolvedFile));
    m_text->setPlainText(text);
    m_text->setLineNotes(lineNotes());
    m_title->setText(
        m_resolvedFile == recordedFile
            ? tr("%1, line %2").arg(m_resolvedFile).arg(line)
            : tr("%1, line %2 (recorded as %3)").arg(m_resolvedFile).arg(line).arg(recordedFile));
    m_title->setToolTip(m_resolvedFile);

    if (m_traceTimeNs) {
        const QDateTime modified = QFileInfo(m_resolvedFile).lastModified();
        const qint64 traceMs = *m_traceTimeNs / 1'000'000;
        if (modified.isValid() && modified.toMSecsSinceEpoch() > traceMs) {
            m_stale = true;
            m_warning->setText(
                tr("This file was modified after the trace was recorded (%1 > %2): lines may not match.")
                    .arg(QLocale().toString(modified, QLocale::ShortFormat),
                         QLocale().toString(QDateTime::fromMSecsSinceEpoch(traceMs), QLocale::ShortFormat)));
            m_warning->show();
        }
    }
    markLine();
    return true;
}

bool SourcePane::showStoredCopy() {
    if (m_sessionFile.isEmpty())
        return false;
    const auto stored = SourceArchive::read(m_sessionFile.toStdString(), m_recordedFile.toStdString());
    if (!stored)
        return false;
    m_fromArchive = true;
    m_missing = false;
    m_missingBox->hide();
    m_resolvedFile.clear();
    m_highlighter->setLanguage(SourceHighlighter::languageForFile(m_recordedFile));
    m_text->setPlainText(QString::fromUtf8(stored->text.data(), static_cast<qsizetype>(stored->text.size())));
    m_text->setLineNotes(lineNotes());
    m_title->setText(tr("%1, line %2").arg(m_recordedFile).arg(m_line));
    m_warning->setText(tr("The file is not on this machine: showing the copy stored in the session when it was "
                          "imported (%1).")
                           .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(stored->mtimeNs / 1'000'000),
                                                   QLocale::ShortFormat)));
    m_warning->show();
    markLine();
    return true;
}

void SourcePane::setLineTotals(std::shared_ptr<const LineTotals> totals) {
    m_totals = std::move(totals);
    if (!m_resolvedFile.isEmpty())
        m_text->setLineNotes(lineNotes());
}

QHash<int, QString> SourcePane::lineNotes() const {
    QHash<int, QString> notes;
    const auto* lines = m_totals ? m_totals->forFile(m_recordedFile.toStdString()) : nullptr;
    if (!lines)
        return notes;
    for (const auto& [line, cost] : *lines) {
        QStringList parts;
        if (cost.kernels > 0)
            parts << tr("%1 GPU").arg(formatDuration(cost.kernelNs));
        if (cost.allocations > 0)
            parts << tr("%1 alloc").arg(formatBytes(cost.allocatedBytes));
        if (!parts.isEmpty())
            notes.insert(line, parts.join(QStringLiteral("  ")));
    }
    return notes;
}

void SourcePane::markLine() {
    QList<QTextEdit::ExtraSelection> marks;
    const QTextBlock block = m_text->document()->findBlockByNumber(m_line - 1);
    if (block.isValid()) {
        QTextEdit::ExtraSelection mark;
        mark.format.setBackground(QColor(255, 236, 140));
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        mark.cursor = QTextCursor(block);
        marks << mark;
        m_text->setTextCursor(QTextCursor(block));
        m_text->centerCursor();
    }
    m_text->setExtraSelections(marks);
}

void SourcePane::openInEditor() {
    if (m_recordedFile.isEmpty()) return;
    const QString file = m_resolvedFile.isEmpty() ? m_recordedFile : m_resolvedFile;
    QString error;
    if (!ws::openInEditor(SourceSettings::load(), file, m_line, 1, &error))
        QMessageBox::warning(this, tr("Open in Editor"), error);
}

void SourcePane::locate() {
    const QString start = QFileInfo(m_recordedFile).fileName();
    const QString located = QFileDialog::getOpenFileName(this, tr("Locate %1").arg(start), start);
    if (!located.isEmpty()) locateAs(located);
}

void SourcePane::locateAs(const QString& located) {
    // Without a shared tail (the file was renamed) the rule maps just this one file.
    const auto rule = learnPathMapping(m_recordedFile.toStdString(), located.toStdString());
    SourceSettings::addPathRule(rule ? *rule
                                     : PathMappingRule{m_recordedFile.toStdString(), located.toStdString()});
    showLocation(m_recordedFile, m_line);
}

} // namespace ws
