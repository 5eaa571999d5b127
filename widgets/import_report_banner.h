#pragma once

#include <QFrame>

class QLabel;

namespace ws {

class ImportReport;

/*
 * A non-modal banner above the views that says an import skipped or repaired something ("3 problems
 * while importing; the file was cut short"). Details opens the full report; the banner never blocks
 * the work and closes with its × button.
 */
class ImportReportBanner : public QFrame {
    Q_OBJECT
public:
    explicit ImportReportBanner(QWidget* parent = nullptr);

    // Shows the banner for a non-empty report, hides it otherwise.
    // kept: what the import did bring in ("12,345 events over 3.2 s"), said after what it skipped.
    void showReport(const ImportReport& report, const QString& kept = {});
    QString message() const;
    QString details() const { return m_details; }

private:
    void showDetails();

    QLabel* m_message;
    QString m_details;
};

} // namespace ws
