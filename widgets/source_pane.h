#pragma once

#include <QWidget>
#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace ws {

class SourceHighlighter;

/*
 * SourcePane: one source file, read-only and highlighted (Python, C/C++/CUDA), with the frame's line
 * marked and scrolled to the middle. The recorded path goes through the path substitution rules
 * (SourceSettings); when no candidate exists the pane says so and offers Locate…, which learns a
 * rule from the chosen file (core learnPathMapping) and stores it. A file modified after the trace
 * was recorded gets a warning, since its lines may no longer match.
 */
class SourcePane : public QWidget {
    Q_OBJECT
public:
    explicit SourcePane(QWidget* parent = nullptr);

    // When the trace was recorded, in ns since the epoch (unknown: no staleness warning).
    void setTraceTime(std::optional<int64_t> epochNs) { m_traceTimeNs = epochNs; }
    // Shows `recordedFile` at `line` (1-based). Returns false when the file was not found.
    bool showLocation(const QString& recordedFile, int line);
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
    QPlainTextEdit* m_text;
    SourceHighlighter* m_highlighter;
    std::optional<int64_t> m_traceTimeNs;
    QString m_recordedFile;
    QString m_resolvedFile;
    int m_line = 0;
    bool m_stale = false;
    bool m_missing = false;

    void locate();
    void markLine();
};

} // namespace ws
