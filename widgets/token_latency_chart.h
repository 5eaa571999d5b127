#pragma once

#include <QWidget>

#include <cstdint>
#include <vector>

namespace ws {

/*
 * TokenLatencyChart: an inference run's time per output token (issue #49), each decode a bar in run
 * order (height: its latency), with the p50 and p99 lines, and beside it the distribution as a
 * histogram. Prefills are marked as thin red bars where they start a request. Hovering names a bar;
 * clicking one emits stepClicked with the caller's id of it (an outlier to its forward).
 */
class TokenLatencyChart : public QWidget {
    Q_OBJECT
public:
    struct Bar {
        int64_t latencyNs = 0;
        bool prefill = false;
        uint32_t id = 0;
    };

    explicit TokenLatencyChart(QWidget* parent = nullptr);
    void setBars(std::vector<Bar> bars, int64_t p50Ns, int64_t p99Ns);
    const std::vector<Bar>& bars() const { return m_bars; }
    // The bar under a widget position, index into bars(); -1 when none.
    int barAt(const QPoint& pos) const;

    QSize sizeHint() const override { return {600, 160}; }
    QSize minimumSizeHint() const override { return {240, 120}; }

signals:
    void stepClicked(uint32_t id);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRectF seriesRect() const;
    QRectF histogramRect() const;
    int64_t maxDecodeNs() const;

    std::vector<Bar> m_bars;
    int64_t m_p50 = 0, m_p99 = 0;
};

} // namespace ws
