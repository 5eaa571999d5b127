#include "source_text_view.h"

#include <QPainter>
#include <QTextBlock>

namespace ws {

/* The gutter widget: paints through SourceTextView, which knows the block geometry. */
class SourceGutter : public QWidget {
public:
    explicit SourceGutter(SourceTextView* view) : QWidget(view), m_view(view) {}
    QSize sizeHint() const override { return {m_view->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { m_view->paintGutter(event); }

private:
    SourceTextView* m_view;
};

namespace {
constexpr int kPad = 6;
}

SourceTextView::SourceTextView(QWidget* parent) : QPlainTextEdit(parent), m_gutter(new SourceGutter(this)) {
    connect(this, &QPlainTextEdit::blockCountChanged, this, &SourceTextView::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    updateGutterWidth();
}

void SourceTextView::setLineNotes(QHash<int, QString> notes) {
    m_notes = std::move(notes);
    m_noteWidth = 0;
    const QFontMetrics fm(font());
    for (const QString& n : std::as_const(m_notes))
        m_noteWidth = std::max(m_noteWidth, fm.horizontalAdvance(n));
    updateGutterWidth();
    m_gutter->update();
}

int SourceTextView::gutterWidth() const {
    const QFontMetrics fm(font());
    const int digits = static_cast<int>(QString::number(std::max(1, blockCount())).size());
    const int numbers = fm.horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
    return kPad + (m_noteWidth > 0 ? m_noteWidth + 2 * kPad : 0) + numbers + kPad;
}

void SourceTextView::updateGutterWidth() {
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

void SourceTextView::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void SourceTextView::paintGutter(QPaintEvent* event) {
    QPainter p(m_gutter);
    const QPalette pal = palette();
    p.fillRect(event->rect(), pal.color(QPalette::AlternateBase));
    const QFontMetrics fm(font());
    p.setFont(font());
    const int width = m_gutter->width();
    const int noteRight = kPad + m_noteWidth;
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        if (block.isVisible() && top + height >= event->rect().top()) {
            const int line = block.blockNumber() + 1;
            auto note = m_notes.constFind(line);
            if (note != m_notes.constEnd()) {
                // Lines with a cost get a tinted band so hot lines stand out while scrolling.
                QColor band = pal.color(QPalette::Highlight);
                band.setAlpha(40);
                p.fillRect(0, top, width, height, band);
                p.setPen(pal.color(QPalette::Text));
                p.drawText(QRect(kPad, top, m_noteWidth, fm.height()), Qt::AlignRight | Qt::AlignVCenter, *note);
            }
            p.setPen(pal.color(QPalette::PlaceholderText));
            const int numbersLeft = m_noteWidth > 0 ? noteRight + 2 * kPad : kPad;
            p.drawText(QRect(numbersLeft, top, width - numbersLeft - kPad, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                       QString::number(line));
        }
        block = block.next();
        top += height;
    }
}

} // namespace ws
