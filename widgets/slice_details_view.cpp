#include "slice_details_view.h"

#include "format.h"
#include "frame_folding_settings.h"
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
        if (url.scheme() == QLatin1String("frame") || url.scheme() == QLatin1String("edit")) {
            activateFrame(url.path().toInt(), url.scheme() == QLatin1String("edit"));
            return;
        }
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

void SliceDetailsView::activateFrame(int index, bool editor) {
    if (index < 0 || static_cast<size_t>(index) >= m_frames.size()) return;
    const StackFrameText& f = m_frames[static_cast<size_t>(index)];
    if (!f.file.empty()) emit sourceRequested(QString::fromStdString(f.file), f.line, editor);
}

// The frames as a list: the function links to the source, "open" to the editor; frames without a
// file are plain text, dispatch frames greyed.
QString SliceDetailsView::stackHtml(const QString& text) {
    m_frames = parseCallStackText(text.toStdString());
    const FrameFolding folding = FrameFoldingSettings::load().patternsInEffect();
    QString out = QStringLiteral("<ol style='margin:0'>");
    for (size_t i = 0; i < m_frames.size(); ++i) {
        const StackFrameText& f = m_frames[i];
        const bool dispatch = folding.folds(f.function);
        // Greyed inside the link (a link's colour would override its list item's).
        QString item = dispatch ? QStringLiteral("<span style='color:#999'>%1</span>").arg(html(f.function)) : html(f.function);
        if (!f.file.empty()) {
            const QString where = html(f.file) + (f.line > 0 ? QStringLiteral(":%1").arg(f.line) : QString());
            item = QStringLiteral("<a href='frame:%1'>%2</a> <span style='color:#666'>%3</span> "
                                  "<a href='edit:%1' style='font-size:small'>%4</a>")
                       .arg(i)
                       .arg(item, where, tr("open"));
        }
        out += QStringLiteral("<li>%1</li>").arg(item);
    }
    return out + QStringLiteral("</ol>");
}

void SliceDetailsView::refresh() {
    m_frames.clear();
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
        QString stack;
        for (auto it = args.begin(); it != args.end(); ++it) {
            if (it.key() == QLatin1String("Call stack") && it.value().isString() && stack.isEmpty())
                stack = it.value().toString();
            else
                out += row(it.key().toHtmlEscaped(), jsonText(it.value()).toHtmlEscaped());
        }
        out += QStringLiteral("</table>");
        if (!stack.isEmpty()) {
            const QString list = stackHtml(stack);
            out += QStringLiteral("<p style='margin:6px 0 2px'><b>%1</b> <span style='color:#666'>%2</span></p>%3")
                       .arg(tr("Call stack"),
                            tr("%n frame(s), innermost first; click a function to see its source", nullptr,
                               static_cast<int>(m_frames.size())),
                            list);
        }
    }
    setHtml(out);
}

} // namespace ws
