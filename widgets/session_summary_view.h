#pragma once

#include <QWidget>

#include <memory>

class QLabel;
class QTableWidget;
class QTreeWidget;

namespace ws {

struct LoadedSession;
class StatCard;

/*
 * The session page: what a loaded trace holds at a glance. A header (file, format, time span), the
 * headline numbers as cards, one row per GPU device (utilization, SM efficiency, occupancy, memory
 * peaks) and the tree of tracks (processes -> threads, GPUs -> streams) with their event counts.
 * Everything shown comes from core's TraceSummary; values the input lacks show as "n/a".
 */
class SessionSummaryView : public QWidget {
    Q_OBJECT
public:
    explicit SessionSummaryView(QWidget* parent = nullptr);

    void setSession(std::shared_ptr<const LoadedSession> session);
    std::shared_ptr<const LoadedSession> session() const { return m_session; }

    // For tests and the shortcuts of other views.
    QString cardValue(const QString& objectName) const;
    QTableWidget* deviceTable() const { return m_devices; }
    QTreeWidget* trackTree() const { return m_tracks; }

private:
    StatCard* addCard(const QString& objectName, const QString& caption);
    void fillDevices();
    void fillTracks();

    std::shared_ptr<const LoadedSession> m_session;
    QLabel* m_title;
    QLabel* m_subtitle;
    QList<StatCard*> m_cards;
    QWidget* m_cardArea;
    QTableWidget* m_devices;
    QTreeWidget* m_tracks;
};

} // namespace ws
