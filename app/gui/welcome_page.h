#pragma once

#include <QWidget>

class QListWidget;
class QPushButton;

namespace ws {

/* What the window shows before any trace is open: how to start (open, sample, drop a file), the
 * recent files, and the formats Warpscope reads. */
class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);
    void setRecentFiles(const QStringList& files);
    void setSampleAvailable(bool available);

signals:
    void openRequested();
    void sampleRequested();
    void recentRequested(const QString& path);

private:
    QListWidget* m_recent;
    QPushButton* m_sample;
};

} // namespace ws
