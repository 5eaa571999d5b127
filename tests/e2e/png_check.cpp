// png_check FILE.png: succeeds when the PNG looks like a real application window: at least 800x500,
// many distinct colours, and no single colour covering almost everything (a blank or black frame).
#include <QColor>
#include <QHash>
#include <QImage>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: png_check FILE.png\n");
        return 2;
    }
    const QImage image(QString::fromLocal8Bit(argv[1]));
    if (image.isNull()) {
        std::fprintf(stderr, "png_check: cannot read %s\n", argv[1]);
        return 1;
    }
    QHash<QRgb, qint64> histogram;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            ++histogram[image.pixel(x, y)];
    qint64 top = 0;
    for (auto it = histogram.cbegin(); it != histogram.cend(); ++it)
        top = std::max(top, it.value());
    const double topShare = static_cast<double>(top) / (static_cast<double>(image.width()) * image.height());
    std::printf("png_check: %dx%d, %lld colours, most common colour covers %.1f%%\n", image.width(), image.height(),
                static_cast<long long>(histogram.size()), topShare * 100.0);
    const bool ok = image.width() >= 800 && image.height() >= 500 && histogram.size() >= 64 && topShare < 0.95;
    if (!ok)
        std::fprintf(stderr, "png_check: %s does not look like a rendered window\n", argv[1]);
    return ok ? 0 : 1;
}
