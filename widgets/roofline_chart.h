#pragma once

#include "analysis/gpu_peaks.h"
#include "analysis/roofline_bound.h"

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

namespace ws {

/*
 * RooflineChart: the roofline of one GPU, log-log: arithmetic intensity (FLOP/byte) across,
 * achieved TFLOP/s up; the memory roof (HBM bandwidth x intensity) rising to the compute roofs
 * (16-bit Tensor Cores, and FP32) with the ridge marked. Each point is a kernel name's or a phase's
 * work over its time, its area by its share of the time, its colour by its bound; a point measured
 * by Nsight Compute is drawn as a diamond. Hovering names a point, clicking emits pointClicked.
 */
class RooflineChart : public QWidget {
    Q_OBJECT
public:
    struct Point {
        double intensity = 0; // FLOP/byte
        double tflops = 0;
        double weight = 0;    // its share of the time, 0..1: the area
        Bound bound = Bound::Unknown;
        bool measured = false; // Nsight Compute's, not the estimate
        bool phase = false;    // a whole phase's work (drawn as a ring)
        QString label;
        int id = -1; // the caller's: what pointClicked gives back
    };

    explicit RooflineChart(QWidget* parent = nullptr);

    void setPeaks(std::optional<GpuPeaks> peaks, double tensorPeakTflops);
    void setPoints(std::vector<Point> points);
    const std::vector<Point>& points() const { return m_points; }
    // The point under a widget position, index into points(); -1 when none.
    int pointAt(const QPoint& pos) const;
    void setHighlighted(int id);

    QSize sizeHint() const override { return {640, 360}; }
    QSize minimumSizeHint() const override { return {320, 200}; }

signals:
    void pointClicked(int id);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    struct Axes {
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0; // log10 ranges
        QRectF plot;
    };
    Axes axes() const;
    QPointF toPixel(const Axes& a, double intensity, double tflops) const;
    double radius(const Point& p) const;

    std::optional<GpuPeaks> m_peaks;
    double m_tensorPeak = 0;
    std::vector<Point> m_points;
    int m_highlighted = -1;
};

} // namespace ws
