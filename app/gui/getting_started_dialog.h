#pragma once

#include <QDialog>

class QTextBrowser;

namespace ws {

/*
 * Help > Getting Started (issue #51): a first-run guide for someone who has never used a profiler:
 * capture a program or open a trace, then what each bottom tab answers, with links to the README's
 * sections where a copy of the README is found beside the program or its sources.
 */
class GettingStartedDialog : public QDialog {
    Q_OBJECT
public:
    explicit GettingStartedDialog(QWidget* parent = nullptr);
    QTextBrowser* browser() const { return m_text; }
    // The guide as HTML; readme is the README.md found (empty: no links to it).
    static QString guideHtml(const QString& readme);
    // README.md beside the installed program (share/doc/warpscope) or in the source tree; empty if none.
    static QString readmePath();

private:
    QTextBrowser* m_text;
};

} // namespace ws
