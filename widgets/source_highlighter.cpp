#include "source_highlighter.h"

#include <QFileInfo>
#include <QStringList>
#include <algorithm>

namespace ws {

namespace {

const char* const kPythonKeywords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "self", "try",    "while",  "with",     "yield"};

const char* const kCppKeywords[] = {
    "alignas", "auto", "bool", "break", "case", "catch", "char", "class", "const", "constexpr", "const_cast",
    "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit",
    "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
    "namespace", "new", "noexcept", "nullptr", "operator", "private", "protected", "public",
    "reinterpret_cast", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
    "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "typename", "union",
    "unsigned", "using", "virtual", "void", "volatile", "while",
    // CUDA
    "__global__", "__device__", "__host__", "__shared__", "__constant__", "__restrict__", "__forceinline__",
    "__syncthreads", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};

} // namespace

SourceHighlighter::SourceHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
    m_comment.setForeground(QColor(0x6a, 0x99, 0x55));
    m_comment.setFontItalic(true);
    m_string.setForeground(QColor(0xb5, 0x4a, 0x2a));
}

SourceHighlighter::Language SourceHighlighter::languageForFile(const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("py") || ext == QLatin1String("pyi")) return Language::Python;
    static const QStringList cpp = {QStringLiteral("c"),   QStringLiteral("cc"),  QStringLiteral("cpp"),
                                    QStringLiteral("cxx"), QStringLiteral("h"),   QStringLiteral("hh"),
                                    QStringLiteral("hpp"), QStringLiteral("hxx"), QStringLiteral("cu"),
                                    QStringLiteral("cuh"), QStringLiteral("inl")};
    return cpp.contains(ext) ? Language::Cpp : Language::Plain;
}

void SourceHighlighter::setLanguage(Language language) {
    if (language == m_language) return;
    m_language = language;
    rebuildRules();
    rehighlight();
}

void SourceHighlighter::rebuildRules() {
    m_rules.clear();
    if (m_language == Language::Plain) return;
    QTextCharFormat keyword;
    keyword.setForeground(QColor(0x1f, 0x4e, 0xb4));
    keyword.setFontWeight(QFont::Bold);
    QStringList words;
    if (m_language == Language::Python)
        for (const char* w : kPythonKeywords)
            words << QString::fromLatin1(w);
    else
        for (const char* w : kCppKeywords)
            words << QString::fromLatin1(w);
    m_rules.push_back(
        {QRegularExpression(QStringLiteral("\\b(%1)\\b").arg(words.join(QLatin1Char('|')))), keyword});
    QTextCharFormat number;
    number.setForeground(QColor(0x09, 0x86, 0x58));
    m_rules.push_back({QRegularExpression(QStringLiteral("\\b[0-9][0-9a-fA-FxX._']*\\b")), number});
    QTextCharFormat special;
    special.setForeground(QColor(0x80, 0x40, 0x90));
    if (m_language == Language::Python)
        m_rules.push_back({QRegularExpression(QStringLiteral("^\\s*@[\\w.]+")), special}); // decorators
    else
        m_rules.push_back({QRegularExpression(QStringLiteral("^\\s*#\\s*\\w+")), special}); // preprocessor
}

void SourceHighlighter::highlightBlock(const QString& text) {
    setCurrentBlockState(0);
    if (m_language == Language::Plain) return;
    for (const Rule& r : m_rules) {
        auto it = r.pattern.globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), r.format);
        }
    }
    // Strings and comments override the rules above; one left-to-right scan so that a '#' or "//"
    // inside a string is not a comment and a quote inside a comment is not a string.
    const bool python = m_language == Language::Python;
    // Block states: 1 = inside a C block comment or a Python """ string, 2 = inside a ''' string.
    const auto closer = [python](int state) {
        return !python ? QStringLiteral("*/") : state == 2 ? QStringLiteral("'''") : QStringLiteral("\"\"\"");
    };
    int i = 0;
    const int n = static_cast<int>(text.size());
    const int previous = previousBlockState();
    if (previous == 1 || previous == 2) {
        const QString close = closer(previous);
        const int end = static_cast<int>(text.indexOf(close));
        const QTextCharFormat& f = python ? m_string : m_comment;
        if (end < 0) {
            setFormat(0, n, f);
            setCurrentBlockState(previous);
            return;
        }
        i = end + static_cast<int>(close.size());
        setFormat(0, i, f);
    }
    while (i < n) {
        const QChar c = text[i];
        if (python && (text.mid(i, 3) == QLatin1String("\"\"\"") || text.mid(i, 3) == QLatin1String("'''"))) {
            const int state = c == QLatin1Char('"') ? 1 : 2;
            const int end = static_cast<int>(text.indexOf(closer(state), i + 3));
            if (end < 0) {
                setFormat(i, n - i, m_string);
                setCurrentBlockState(state);
                return;
            }
            setFormat(i, end + 3 - i, m_string);
            i = end + 3;
        } else if (!python && text.mid(i, 2) == QLatin1String("/*")) {
            const int end = static_cast<int>(text.indexOf(closer(1), i + 2));
            if (end < 0) {
                setFormat(i, n - i, m_comment);
                setCurrentBlockState(1);
                return;
            }
            setFormat(i, end + 2 - i, m_comment);
            i = end + 2;
        } else if ((python && c == QLatin1Char('#')) || (!python && text.mid(i, 2) == QLatin1String("//"))) {
            setFormat(i, n - i, m_comment);
            return;
        } else if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            int j = i + 1;
            while (j < n && text[j] != c)
                j += text[j] == QLatin1Char('\\') ? 2 : 1;
            const int end = std::min(j + 1, n);
            setFormat(i, end - i, m_string);
            i = end;
        } else {
            ++i;
        }
    }
}

} // namespace ws
