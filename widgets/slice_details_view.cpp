#include "slice_details_view.h"

#include "format.h"
#include "model/session.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <QUrlQuery>

namespace ws {

namespace {

QString html(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())).toHtmlEscaped();
}

QString jsonText(const QJsonValue& v) {
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 15);
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    return v.toVariant().toString(); // bool, null
}

QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='color:#666;padding-right:12px'>%1</td><td>%2</td></tr>").arg(key, value);
}

} // namespace

SliceDetailsView::SliceDetailsView(TimeViewport* timeViewport, QWidget* parent)
    : QTextBrowser(parent), m_time(timeViewport) {
    setObjectName(QStringLiteral("sliceDetails"));
    setOpenLinks(false);
    connect(m_time, &TimeViewport::selectedSliceChanged, this, &SliceDetailsView::refresh);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const QUrlQuery q(url);
        const SliceRef s{q.queryItemValue(QStringLiteral("track")).toUInt(),
                         q.queryItemValue(QStringLiteral("slice")).toUInt()};
        m_time->setSelectedSlice(s);
        emit revealRequested(s);
    });
    refresh();
}

void SliceDetailsView::setSession(std::shared_ptr<const Session> session) {
    m_session = std::move(session);
    refresh();
}

void SliceDetailsView::refresh() {
    const auto sel = m_time->selectedSlice();
    if (!m_session || !sel || sel->track >= m_session->tracks().size() ||
        sel->slice >= m_session->tracks()[sel->track].sliceCount()) {
        setHtml(QStringLiteral("<p style='color:#777'>%1</p>")
                    .arg(tr("Click a slice on the timeline to see its details here.")));
        return;
    }
    const Session& s = *m_session;
    const Track& t = s.tracks()[sel->track];
    const uint32_t i = sel->slice;
    QString out = QStringLiteral("<h3 style='margin:2px 0'>%1</h3><table>").arg(html(s.str(t.names[i])));
    out += row(tr("Kind"), QString::fromLatin1(eventKindName(s.kindOf(t, i))));
    out += row(tr("Category"), html(s.str(s.categories()[t.category[i]].name)));
    out += row(tr("Track"), html(s.processLabel(s.processes()[t.process])) + QStringLiteral(" / ") +
                                html(s.trackLabel(t)));
    out += row(tr("Start"), formatDuration(t.start[i] - s.startNs()));
    out += row(tr("Duration"), formatDuration(t.dur[i]));
    out += QStringLiteral("</table>");

    QString links;
    for (uint32_t index : s.flowsOf(sel->track, i)) {
        const Flow& f = s.flows()[index];
        const bool outgoing = f.fromTrack == sel->track && f.fromSlice == i;
        const uint32_t ot = outgoing ? f.toTrack : f.fromTrack;
        const uint32_t os = outgoing ? f.toSlice : f.fromSlice;
        const Track& other = s.tracks()[ot];
        QUrl url(QStringLiteral("slice:"));
        url.setQuery(QStringLiteral("track=%1&slice=%2").arg(ot).arg(os));
        links += QStringLiteral("<li>%1 <a href='%2'>%3</a> · %4 · %5</li>")
                     .arg(outgoing ? tr("→ to") : tr("← from"), url.toString(), html(s.str(other.names[os])),
                          html(s.trackLabel(other)), formatDuration(other.dur[os]));
    }
    if (!links.isEmpty())
        out += QStringLiteral("<p style='margin:6px 0 2px'><b>%1</b></p><ul style='margin:0'>%2</ul>")
                   .arg(tr("Linked events"), links);

    const std::string json = s.eventJson(t, i);
    const QJsonObject event = QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
    const QJsonObject args = event.value(QStringLiteral("args")).toObject();
    if (!args.isEmpty()) {
        out += QStringLiteral("<p style='margin:6px 0 2px'><b>%1</b></p><table>").arg(tr("Arguments"));
        for (auto it = args.begin(); it != args.end(); ++it)
            out += row(it.key().toHtmlEscaped(), jsonText(it.value()).toHtmlEscaped());
        out += QStringLiteral("</table>");
    }
    setHtml(out);
}

} // namespace ws
