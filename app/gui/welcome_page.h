#pragma once

#include "model/trace_format.h"

#include <QWidget>

class QAction;
class QBoxLayout;
class QLabel;
class QListWidget;
class QPushButton;

namespace ws {

/* What the window shows before any trace is open: how to start (a new capture, open a trace, the
 * sample, a URL, an SSH folder, the session library, drop a file), the recent files, and the formats
 * Warpscope reads: the import's own table (import_formats.h), so the list cannot go stale. */
class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);
    void setRecentFiles(const QStringList& files);
    void setSampleAvailable(bool available);
    // A button that triggers `action` (its text and tip): first row (primary) or the second.
    QPushButton* addStartAction(QAction* action, bool primary);
    // The formats listed under "Reads", in the table's order.
    const QList<TraceFormat>& listedFormats() const { return m_listed; }
    // The user's words for a format (every TraceFormat has some: the switch has no default).
    static QString formatDescription(TraceFormat format);

signals:
    void openRequested();
    void sampleRequested();
    void recentRequested(const QString& path);

private:
    QListWidget* m_recent;
    QPushButton* m_sample;
    QBoxLayout* m_primary;
    QBoxLayout* m_more;
    QList<TraceFormat> m_listed;
};

} // namespace ws
