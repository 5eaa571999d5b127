#pragma once

#include <QHash>
#include <QPlainTextEdit>

namespace ws {

/*
 * SourceTextView: a read-only code view with a gutter: per-line notes (what ran under that line:
 * kernel time, allocations) and line numbers, painted for the visible blocks only, so a file of
 * any length costs nothing beyond the screen.
 */
class SourceTextView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit SourceTextView(QWidget* parent = nullptr);
    // Notes by 1-based line number; lines without a note show only their number.
    void setLineNotes(QHash<int, QString> notes);
    const QHash<int, QString>& lineNotes() const { return m_notes; }
    int gutterWidth() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    friend class SourceGutter;
    void paintGutter(QPaintEvent* event);
    void updateGutterWidth();

    QWidget* m_gutter;
    QHash<int, QString> m_notes;
    int m_noteWidth = 0; // widest note in pixels
};

} // namespace ws
