#include "search_bar.h"

#include "model/session.h"

#include <QCheckBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

#include <algorithm>

namespace ws {

SearchBar::SearchBar(TimeViewport* timeViewport, QWidget* parent)
    : QWidget(parent), m_time(timeViewport), m_field(new QLineEdit(this)), m_regex(new QCheckBox(tr("Regex"), this)),
      m_status(new QLabel(this)) {
    setObjectName(QStringLiteral("searchBar"));
    m_field->setPlaceholderText(tr("Find slices by name…"));
    m_field->setClearButtonEnabled(true);
    auto* prev = new QToolButton(this);
    prev->setText(QStringLiteral("▲"));
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* nextButton = new QToolButton(this);
    nextButton->setText(QStringLiteral("▼"));
    nextButton->setToolTip(tr("Next match (Enter)"));
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("×"));
    close->setToolTip(tr("Close (Esc)"));
    close->setAutoRaise(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(m_field, 1);
    layout->addWidget(m_regex);
    layout->addWidget(m_status);
    layout->addWidget(prev);
    layout->addWidget(nextButton);
    layout->addWidget(close);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(180);
    connect(&m_debounce, &QTimer::timeout, this, &SearchBar::runSearch);
    connect(m_field, &QLineEdit::textChanged, this, [this] { m_debounce.start(); });
    connect(m_regex, &QCheckBox::toggled, this, &SearchBar::runSearch);
    connect(m_field, &QLineEdit::returnPressed, this, [this] {
        if (m_debounce.isActive()) {
            m_debounce.stop();
            runSearch();
        }
        // Shift+Enter goes backwards, as in browsers and editors.
        step(QGuiApplication::keyboardModifiers() & Qt::ShiftModifier ? -1 : +1);
    });
    connect(prev, &QToolButton::clicked, this, &SearchBar::previous);
    connect(nextButton, &QToolButton::clicked, this, &SearchBar::next);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void SearchBar::setSession(std::shared_ptr<const Session> session) {
    m_session = std::move(session);
    runSearch();
}

void SearchBar::activate() {
    show();
    m_field->setFocus();
    m_field->selectAll();
}

void SearchBar::setPattern(const QString& text, bool regex) {
    const QSignalBlocker blockField(m_field), blockRegex(m_regex);
    m_field->setText(text);
    m_regex->setChecked(regex);
    runSearch();
}

void SearchBar::runSearch() {
    m_result = {};
    m_current = -1;
    if (m_session)
        m_result = searchSlices(*m_session, m_field->text().toStdString(), m_regex->isChecked());
    m_status->setText(statusText());
}

QString SearchBar::statusText() const {
    if (!m_result.error.empty())
        return tr("invalid pattern");
    if (m_field->text().isEmpty())
        return {};
    if (m_result.matches.empty())
        return tr("no matches");
    if (m_current < 0)
        return tr("%n match(es)", nullptr, static_cast<int>(m_result.matches.size()));
    return tr("%1 of %2").arg(m_current + 1).arg(m_result.matches.size());
}

void SearchBar::next() { step(+1); }
void SearchBar::previous() { step(-1); }

void SearchBar::step(int direction) {
    const auto& matches = m_result.matches;
    if (matches.empty())
        return;
    if (m_current < 0) {
        // Start from the selection (or the middle of the view) in the direction asked.
        int64_t from = (m_time->t0() + m_time->t1()) / 2;
        if (const auto sel = m_time->selectedSlice(); sel && m_session && sel->track < m_session->tracks().size())
            from = m_session->tracks()[sel->track].start[sel->slice];
        auto it = std::lower_bound(matches.begin(), matches.end(), from,
                                   [](const SliceMatch& m, int64_t t) { return m.start < t; });
        const int index = static_cast<int>(it - matches.begin());
        m_current = direction > 0 ? index % static_cast<int>(matches.size())
                                  : (index - 1 + static_cast<int>(matches.size())) % static_cast<int>(matches.size());
    } else {
        const int n = static_cast<int>(matches.size());
        m_current = (m_current + direction + n) % n;
    }
    const SliceMatch& m = matches[static_cast<size_t>(m_current)];
    const SliceRef ref{m.track, m.slice};
    m_time->setSelectedSlice(ref);
    emit revealRequested(ref);
    m_status->setText(statusText());
}

void SearchBar::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        hide();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace ws
