#pragma once

#include "analysis/ncu_results.h"
#include "time_viewport.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace ws {

class KernelTable;
class Roofline;
class RooflineChart;
class RooflineGroupModel;
class SessionAnalyses;

/*
 * The "Roofline" tab (issue #49): every kernel name of the run against its GPU's datasheet peaks
 * (analysis/roofline.h): a log-log chart of arithmetic intensity against achieved TFLOP/s with the
 * memory and compute roofs, the inference phases as rings with their MFU and MBU (and the PM
 * sampling means where the capture has them), and the kernel names in a table with their bound. The
 * GPU can be taken as another row of the table (a trace whose device is not listed). Nsight Compute:
 * "Copy ncu command" puts the command for the selected kernel's launches on the clipboard
 * (analysis/ncu_command.h); "Attach Nsight Compute results" reads its CSV exports (or a .ncu-rep
 * through ncu, import/ncu_report_export.h) and shows what it
 * measured beside the estimates, as diamonds on the chart and ncu columns in the table.
 */
class RooflineView : public QWidget {
    Q_OBJECT
public:
    RooflineView(TimeViewport* time, std::shared_ptr<SessionAnalyses> analyses, QWidget* parent = nullptr);
    ~RooflineView() override;
    void computeNow();
    bool ready() const { return m_roofline != nullptr; }
    const Roofline* roofline() const { return m_roofline.get(); }
    RooflineChart* chart() const { return m_chart; }
    RooflineGroupModel* model() const { return m_model; }
    QString summaryText() const;
    // Takes this row of the peaks table (gpu_peaks.h) instead of the device's ("" for the device's).
    void setGpu(const QString& name);
    // Reads ncu CSV exports and attaches them; false with the reason when one cannot be read.
    bool attachNcu(const QStringList& paths, QString* error);
    // The ncu command for the kernel name of table row `group` (its middle launch and the two after).
    QString ncuCommandFor(int group) const;

signals:
    void revealRequested(const ws::SliceRef& slice);

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Result;
    void deliver(Result result);
    void rebuildRoofline();
    void showRoofline();
    void selectGroup(int group);
    int currentGroup() const;
    void chooseNcuFiles();

    TimeViewport* m_time;
    std::shared_ptr<SessionAnalyses> m_analyses;
    std::shared_ptr<const KernelTable> m_table;
    std::shared_ptr<const Roofline> m_roofline;
    std::optional<NcuResults> m_ncu;
    QLabel* m_summary;
    QComboBox* m_gpu;
    RooflineChart* m_chart;
    RooflineGroupModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_groups;
    QPushButton* m_copyNcu;
    bool m_started = false;
};

} // namespace ws
