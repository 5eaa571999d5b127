#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace ws {

/*
 * OpenUrlDialog: File > Open URL. One field for a trace in object storage or on a web server
 * (s3://, gs://, az://, Azure https, https://, http://), checked as it is typed (core/remote's
 * parser says what is wrong), with the forms and where credentials come from spelled out, so a
 * user needs no manual. Credentials are never asked for or stored here: they come from the
 * environment and the clouds' own configuration files.
 */
class OpenUrlDialog : public QDialog {
    Q_OBJECT
public:
    explicit OpenUrlDialog(QWidget* parent = nullptr);
    QString url() const;
    void setUrl(const QString& url);

private:
    void validate();

    QLineEdit* m_url;
    QLabel* m_problem;
    QPushButton* m_open;
};

} // namespace ws
