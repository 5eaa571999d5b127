#pragma once

#include <QFrame>

class QLabel;

namespace ws {

/* A small framed box with a caption, a big value and an optional detail line (the session page's
 * headline numbers). */
class StatCard : public QFrame {
    Q_OBJECT
public:
    explicit StatCard(const QString& caption, QWidget* parent = nullptr);
    void setValue(const QString& value, const QString& detail = {});
    QString value() const;

private:
    QLabel* m_value;
    QLabel* m_detail;
};

} // namespace ws
