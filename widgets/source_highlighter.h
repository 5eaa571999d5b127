#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace ws {

/*
 * SourceHighlighter: keyword, string, number and comment colouring for Python and C/C++/CUDA
 * sources, chosen from the file extension. Line based (block state 1 = inside a C block comment
 * or a Python triple-quoted string), so it is cheap enough for files of any size the pane shows.
 */
class SourceHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    enum class Language { Plain, Python, Cpp };

    explicit SourceHighlighter(QTextDocument* document);
    void setLanguage(Language language);
    Language language() const { return m_language; }
    static Language languageForFile(const QString& path);

protected:
    void highlightBlock(const QString& text) override;

private:
    /* One pattern and the format applied to its matches. */
    struct Rule {
        QRegularExpression pattern;
        QTextCharFormat format;
    };

    Language m_language = Language::Plain;
    std::vector<Rule> m_rules;
    QTextCharFormat m_comment;
    QTextCharFormat m_string;

    void rebuildRules();
};

} // namespace ws
