#pragma once

#include "store/bookmarks.h"

#include <QAbstractTableModel>

namespace ws {

/*
 * The bookmarks of one session as a table (time from the session start, note), kept sorted by
 * time. The timeline draws them on its ruler; the Bookmarks tab edits them. `changed` fires after
 * every edit so the owner can save them into the session file.
 */
class BookmarkModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Note, ColumnCount };

    explicit BookmarkModel(int64_t sessionStart, QObject* parent = nullptr);

    const std::vector<Bookmark>& bookmarks() const { return m_bookmarks; }
    void setBookmarks(std::vector<Bookmark> bookmarks); // no `changed`: loading is not an edit
    int add(int64_t ts, const QString& note);          // returns the new row
    void removeRow(int row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void changed();

private:
    int64_t m_sessionStart;
    std::vector<Bookmark> m_bookmarks;
};

} // namespace ws
