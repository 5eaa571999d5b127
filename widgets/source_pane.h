#pragma once

#include "source_text_view.h"

#include <QHash>
#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace ws {

class LineTotals;
class SourceHighlighter;

/*
 * SourcePane: one source file, read-only and highlighted (Python, C/C++/CUDA), with the frame's line
 * marked and scrolled to the middle. The recorded path goes through the path substitution rules
 * (SourceSettings); when no candidate exists the pane says so and offers Locate…, which learns a
 * rule from the chosen file (core learnPathMapping) and stores it. A file modified after the trace
 * was recorded gets a warning, since its lines may no longer match. The gutter shows, per line, the
 * GPU time and allocations of everything launched with that line on its Python stack (LineTotals).
 * A file missing here is shown from the session file's stored copy when it has one (SourceArchive).
 */
class SourcePane : public QWidget {
    Q_OBJECT
public:
    explicit SourcePane(QWidget* parent = nullptr);

    // When the trace was recorded, in ns since the epoch (unknown: no staleness warning).
    void setTraceTime(std::optional<int64_t> epochNs) { m_traceTimeNs = epochNs; }
    // Shows `recordedFile` at `line` (1-based). Returns false when the file was not found.
    bool showLocation(const QString& recordedFile, int line);
    // The session file whose stored copies of sources are shown when a file is not on this machine.
    void setSessionFile(const QString& path) { m_sessionFile = path; }
    bool isFromArchive() const { return m_fromArchive; }
    // Per-line totals to show in the gutter (kernel time and allocations under each line).
    void setLineTotals(std::shared_ptr<const LineTotals> totals);
    // The gutter notes of the shown file by line (for tests).
    QHash<int, QString> lineNotes() const;
    // Opens the shown location (or the last one asked for) in the configured editor.
    void openInEditor();

    QString recordedFile() const { return m_recordedFile; }
    QString resolvedFile() const { return m_resolvedFile; }
    int line() const { return m_line; }
    QPlainTextEdit* editor() const { return m_text; }
    bool isStale() const { return m_stale; }
    bool isMissing() const { return m_missing; }
    // Test hook: learns a mapping as if the user located `located` for the current file.
    void locateAs(const QString& located);

private:
    QLabel* m_title;
    QLabel* m_warning;
    QWidget* m_missingBox;
    QLabel* m_missingText;
    QPushButton* m_locate;
    SourceTextView* m_text;
    SourceHighlighter* m_highlighter;
    std::optional<int64_t> m_traceTimeNs;
    std::shared_ptr<const LineTotals> m_totals;
    QString m_recordedFile;
    QString m_resolvedFile;
    int m_line = 0;
    bool m_stale = false;
    bool m_missing = false;
    bool m_fromArchive = false;
    QString m_sessionFile;

    void locate();
    void markLine();
    bool showStoredCopy();
};

} // namespace ws
