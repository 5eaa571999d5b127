#include "import_report_banner.h"

#include "model/import_report.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace ws {

ImportReportBanner::ImportReportBanner(QWidget* parent) : QFrame(parent), m_message(new QLabel(this)) {
    setObjectName(QStringLiteral("importReportBanner"));
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(QStringLiteral("#importReportBanner { background: #fff4ce; border: 1px solid #e0c060; }"
                                 "#importReportBanner QLabel { color: #4a3b00; }"));
    auto* icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(20, 20));
    m_message->setWordWrap(true);
    auto* detailsButton = new QPushButton(tr("Details…"), this);
    connect(detailsButton, &QPushButton::clicked, this, &ImportReportBanner::showDetails);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("×"));
    close->setToolTip(tr("Hide this message"));
    close->setAutoRaise(true);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(icon);
    layout->addWidget(m_message, 1);
    layout->addWidget(detailsButton);
    layout->addWidget(close);
    hide();
}

void ImportReportBanner::showReport(const ImportReport& report, const QString& kept) {
    // Notes (what healthy traces contain too) are in the details, not worth a warning on their own.
    const uint64_t total = report.warningCount();
    if (total == 0 && !report.truncated()) {
        hide();
        return;
    }
    QString text = tr("The import skipped or repaired %n item(s).", nullptr, static_cast<int>(total));
    if (report.truncated())
        text += QLatin1Char(' ') + tr("The file ends early (was the job killed while writing?); "
                                      "everything before the cut was imported.");
    if (!kept.isEmpty())
        text += QLatin1Char(' ') + tr("Kept: %1.").arg(kept);
    m_message->setText(text);
    m_details = QString::fromStdString(report.toText());
    show();
}

QString ImportReportBanner::message() const { return m_message->text(); }

void ImportReportBanner::showDetails() {
    QMessageBox box(QMessageBox::Information, tr("Import report"),
                    tr("What the importer skipped or repaired, by kind, with the first examples:"),
                    QMessageBox::Close, this);
    box.setDetailedText(m_details);
    box.exec();
}

} // namespace ws
