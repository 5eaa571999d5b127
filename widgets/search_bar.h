#pragma once

#include "analysis/slice_search.h"
#include "time_viewport.h"

#include <QTimer>
#include <QWidget>

#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace ws {

class Session;

/*
 * The timeline's search bar (Ctrl+F): a name substring or regex, the match count, and next /
 * previous, which select the match and ask the timeline to reveal it. Matches are sorted by time;
 * "next" starts after the current selection. Typing re-searches after a short pause.
 */
class SearchBar : public QWidget {
    Q_OBJECT
public:
    SearchBar(TimeViewport* timeViewport, QWidget* parent = nullptr);
    void setSession(std::shared_ptr<const Session> session);
    void activate(); // show and focus the field

    size_t matchCount() const { return m_result.matches.size(); }
    void setPattern(const QString& text, bool regex); // runs the search at once
    void next();
    void previous();
    QString statusText() const;

signals:
    void revealRequested(const ws::SliceRef& slice);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void runSearch();
    void step(int direction);

    TimeViewport* m_time;
    std::shared_ptr<const Session> m_session;
    QLineEdit* m_field;
    QCheckBox* m_regex;
    QLabel* m_status;
    QTimer m_debounce;
    SliceSearchResult m_result;
    int m_current = -1;
};

} // namespace ws
