#include "stat_card.h"

#include <QLabel>
#include <QVBoxLayout>

namespace ws {

StatCard::StatCard(const QString& caption, QWidget* parent)
    : QFrame(parent), m_value(new QLabel(this)), m_detail(new QLabel(this)) {
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QStringLiteral("statCard"));
    auto* captionLabel = new QLabel(caption, this);
    captionLabel->setStyleSheet(QStringLiteral("color: palette(mid);"));
    QFont big = m_value->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    m_value->setFont(big);
    m_value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setStyleSheet(QStringLiteral("color: palette(mid);"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 8, 12, 8);
    layout->setSpacing(2);
    layout->addWidget(captionLabel);
    layout->addWidget(m_value);
    layout->addWidget(m_detail);
}

void StatCard::setValue(const QString& value, const QString& detail) {
    m_value->setText(value);
    m_detail->setText(detail);
    m_detail->setVisible(!detail.isEmpty());
}

QString StatCard::value() const { return m_value->text(); }

} // namespace ws
