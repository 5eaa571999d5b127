#include "session_summary_view.h"

#include "format.h"
#include "remote/remote_url.h"
#include "session_loader.h"
#include "stat_card.h"

#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace ws {

namespace {
constexpr int kCardColumns = 4;

QTableWidgetItem* numberItem(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}
} // namespace

SessionSummaryView::SessionSummaryView(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_subtitle(new QLabel(this)), m_cardArea(new QWidget(this)),
      m_devices(new QTableWidget(this)), m_tracks(new QTreeWidget(this)) {
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.5);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_subtitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_subtitle->setWordWrap(true);

    auto* grid = new QGridLayout(m_cardArea);
    grid->setContentsMargins(0, 0, 0, 0);
    addCard(QStringLiteral("events"), tr("Events"));
    addCard(QStringLiteral("kernels"), tr("GPU kernels"));
    addCard(QStringLiteral("memcpy"), tr("Memory copies"));
    addCard(QStringLiteral("memset"), tr("Memory sets"));
    addCard(QStringLiteral("runtime"), tr("Runtime API calls"));
    addCard(QStringLiteral("flows"), tr("CPU → GPU flows"));
    addCard(QStringLiteral("steps"), tr("Profiler steps"));
    addCard(QStringLiteral("duration"), tr("Trace duration"));

    m_devices->setObjectName(QStringLiteral("deviceTable"));
    m_devices->setColumnCount(8);
    m_devices->setHorizontalHeaderLabels({tr("Device"), tr("Name"), tr("GPU Utilization"), tr("Est. SM Efficiency"),
                                          tr("Est. Achieved Occupancy"), tr("Peak Allocated"), tr("Peak Reserved"),
                                          tr("Memory")});
    m_devices->verticalHeader()->hide();
    m_devices->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_devices->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_devices->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_devices->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);

    m_tracks->setObjectName(QStringLiteral("trackTree"));
    m_tracks->setColumnCount(4);
    m_tracks->setHeaderLabels({tr("Track"), tr("Events"), tr("First event"), tr("Active span")});
    m_tracks->setUniformRowHeights(true);
    m_tracks->setAlternatingRowColors(true);
    m_tracks->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tracks->header()->setStretchLastSection(false);

    auto* devicesBox = new QWidget(this);
    auto* devicesLayout = new QVBoxLayout(devicesBox);
    devicesLayout->setContentsMargins(0, 0, 0, 0);
    devicesLayout->addWidget(new QLabel(tr("<b>GPU devices</b>"), devicesBox));
    devicesLayout->addWidget(m_devices);
    auto* tracksBox = new QWidget(this);
    auto* tracksLayout = new QVBoxLayout(tracksBox);
    tracksLayout->setContentsMargins(0, 0, 0, 0);
    tracksLayout->addWidget(new QLabel(tr("<b>Tracks</b>"), tracksBox));
    tracksLayout->addWidget(m_tracks);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(devicesBox);
    split->addWidget(tracksBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->addWidget(m_title);
    layout->addWidget(m_subtitle);
    layout->addSpacing(6);
    layout->addWidget(m_cardArea);
    layout->addSpacing(6);
    layout->addWidget(split, 1);
}

StatCard* SessionSummaryView::addCard(const QString& objectName, const QString& caption) {
    auto* card = new StatCard(caption, m_cardArea);
    card->setObjectName(objectName);
    auto* grid = static_cast<QGridLayout*>(m_cardArea->layout());
    const int index = static_cast<int>(m_cards.size());
    grid->addWidget(card, index / kCardColumns, index % kCardColumns);
    m_cards.append(card);
    return card;
}

QString SessionSummaryView::cardValue(const QString& objectName) const {
    for (const StatCard* card : m_cards)
        if (card->objectName() == objectName)
            return card->value();
    return {};
}

void SessionSummaryView::setSession(std::shared_ptr<const LoadedSession> session) {
    m_session = std::move(session);
    if (!m_session)
        return;
    const TraceSummary& s = m_session->summary;
    const QFileInfo info(m_session->path);
    m_title->setText(info.fileName());
    if (!m_session->summarized) {
        m_subtitle->setText(tr("Computing the summary…"));
        return;
    }
    // A URL (already without its secrets) is shown as it is: it is no path on this machine.
    const QString source = isRemoteUrl(m_session->path.toStdString()) ? m_session->path
                                                                      : QDir::toNativeSeparators(info.absoluteFilePath());
    m_subtitle->setText(tr("%1 · %2 · imported in %3 ms").arg(QString::fromStdString(s.format), source).arg(m_session->elapsedMs));

    auto card = [&](const char* name) {
        for (StatCard* c : m_cards)
            if (c->objectName() == QLatin1String(name))
                return c;
        return static_cast<StatCard*>(nullptr);
    };
    card("events")->setValue(formatCount(s.events));
    card("kernels")->setValue(formatCount(s.kernelCount), tr("%1 on the GPU").arg(formatDuration(s.kernelTotalNs)));
    card("memcpy")->setValue(formatCount(s.memcpyCount),
                             s.memcpyBytes ? tr("%1, %2").arg(formatDuration(s.memcpyTotalNs), formatBytes(
                                                                  static_cast<int64_t>(*s.memcpyBytes)))
                                           : formatDuration(s.memcpyTotalNs));
    card("memset")->setValue(formatCount(s.memsetCount), formatDuration(s.memsetTotalNs));
    card("runtime")->setValue(formatCount(s.runtimeCalls));
    card("flows")->setValue(formatCount(s.flows));
    card("steps")->setValue(formatCount(s.steps));
    card("duration")->setValue(formatDuration(s.endNs - s.startNs));
    fillDevices();
    fillTracks();
}

void SessionSummaryView::fillDevices() {
    const TraceSummary& s = m_session->summary;
    m_devices->setRowCount(static_cast<int>(s.devices.size()));
    auto bytes = [](const std::optional<int64_t>& b) { return b ? formatBytes(*b) : tr("n/a"); };
    for (int row = 0; row < static_cast<int>(s.devices.size()); ++row) {
        const DeviceSummary& d = s.devices[static_cast<size_t>(row)];
        m_devices->setItem(row, 0, numberItem(QString::number(d.id)));
        m_devices->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(d.name)));
        m_devices->setItem(row, 2, numberItem(formatPercent(d.gpuUtilization)));
        m_devices->setItem(row, 3, numberItem(formatPercent(d.estSmEfficiency)));
        m_devices->setItem(row, 4, numberItem(d.estAchievedOccupancy ? formatPercent(*d.estAchievedOccupancy / 100.0)
                                                                    : tr("n/a")));
        m_devices->setItem(row, 5, numberItem(bytes(d.peakAllocatedBytes)));
        m_devices->setItem(row, 6, numberItem(bytes(d.peakReservedBytes)));
        m_devices->setItem(row, 7, numberItem(bytes(d.totalMemoryBytes)));
    }
    // AMD's figure is the same formula over compute units: the header says which the rows hold.
    const auto amd = std::count_if(s.devices.begin(), s.devices.end(), [](const DeviceSummary& d) { return d.amd; });
    m_devices->horizontalHeaderItem(3)->setText(amd == 0 ? tr("Est. SM Efficiency")
                                                : amd == static_cast<std::ptrdiff_t>(s.devices.size()) ? tr("Est. CU Efficiency")
                                                                                             : tr("Est. SM / CU Efficiency"));
}

void SessionSummaryView::fillTracks() {
    const TraceSummary& s = m_session->summary;
    m_tracks->clear();
    // Group rows keep the order in which the summary lists their first track (CPU processes first,
    // then devices, as core orders them).
    std::map<std::string, QTreeWidgetItem*> groups;
    std::map<QTreeWidgetItem*, uint64_t> groupEvents;
    for (const TrackSummary& t : s.tracks) {
        QTreeWidgetItem*& group = groups[t.group];
        if (!group) {
            group = new QTreeWidgetItem(m_tracks, {QString::fromStdString(t.group)});
            group->setIcon(0, style()->standardIcon(QStyle::SP_ComputerIcon));
            group->setExpanded(true);
        }
        if (t.gpu) // a group holding any GPU stream is a device
            group->setIcon(0, style()->standardIcon(QStyle::SP_DriveHDIcon));
        auto* item = new QTreeWidgetItem(group, {QString::fromStdString(t.name), formatCount(t.events),
                                                 formatDuration(t.startNs - s.startNs),
                                                 formatDuration(t.endNs - t.startNs)});
        for (int c = 1; c < 4; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        groupEvents[group] += t.events;
    }
    for (auto& [item, events] : groupEvents) {
        item->setText(1, formatCount(events));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    }
    m_tracks->resizeColumnToContents(1);
    m_tracks->resizeColumnToContents(2);
    m_tracks->resizeColumnToContents(3);
}

} // namespace ws
