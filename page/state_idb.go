package page

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
)

// An origin's IndexedDB databases, in the shape Playwright's
// storageState({indexedDB: true}) writes (1.51 and later), so that
// either tool loads what the other saved. The page's own code reads and
// writes them (js/idb_save.js, js/idb_load.js): CDP's IndexedDB domain
// hands values back as remote objects, one request per page of records,
// and makes no database.

//go:embed js/idb_save.js
var idbSaveJS string

//go:embed js/idb_load.js
var idbLoadJS string

//go:embed js/idb_delete.js
var idbDeleteJS string

// IndexedDB is one database: its name, its version, and its object
// stores.
type IndexedDB struct {
	Name    string     `json:"name"`
	Version int64      `json:"version"`
	Stores  []IDBStore `json:"stores"`
}

// IDBStore is an object store: its key path (a string, or an array of
// them in KeyPathArray; neither when keys are kept apart from values),
// whether it makes keys, its indexes and its records.
type IDBStore struct {
	Name          string `json:"name"`
	AutoIncrement bool   `json:"autoIncrement"`
	// KeyPath is a pointer as "" is a key path of its own: the value is
	// its key.
	KeyPath      *string     `json:"keyPath,omitempty"`
	KeyPathArray []string    `json:"keyPathArray,omitempty"`
	Records      []IDBRecord `json:"records"`
	Indexes      []IDBIndex  `json:"indexes"`
}

// IDBRecord is a record: its value, and its key when the store keeps
// keys apart. A value JSON holds as it is (strings, finite numbers,
// booleans, null, plain objects and arrays of them) is in Value; any
// other (a Date, undefined, a Map…) in ValueEncoded, in Playwright's
// encoding of values; the same for the key.
type IDBRecord struct {
	Key          json.RawMessage `json:"key,omitempty"`
	KeyEncoded   json.RawMessage `json:"keyEncoded,omitempty"`
	Value        json.RawMessage `json:"value,omitempty"`
	ValueEncoded json.RawMessage `json:"valueEncoded,omitempty"`
}

// IDBIndex is an index of a store.
type IDBIndex struct {
	Name         string   `json:"name"`
	KeyPath      *string  `json:"keyPath,omitempty"`
	KeyPathArray []string `json:"keyPathArray,omitempty"`
	MultiEntry   bool     `json:"multiEntry"`
	Unique       bool     `json:"unique"`
}

// check finds what would make db fail to load, so that a file with it
// is refused before anything is set: a database, store or index with
// no name, no version, an index with no key path, a record with no
// value, or one whose key the store cannot take.
func (db *IndexedDB) check() error {
	if db.Name == "" {
		return fmt.Errorf("a database has no name")
	}
	if db.Version < 1 {
		return fmt.Errorf("database %q: version %d is not a whole number of 1 or more", db.Name, db.Version)
	}
	for i := range db.Stores {
		s := &db.Stores[i]
		if s.Name == "" {
			return fmt.Errorf("database %q: store %d has no name", db.Name, i)
		}
		inline := s.KeyPath != nil || s.KeyPathArray != nil
		for _, ix := range s.Indexes {
			if ix.Name == "" || (ix.KeyPath == nil && ix.KeyPathArray == nil) {
				return fmt.Errorf("database %q, store %q: an index lacks its name or keyPath", db.Name, s.Name)
			}
		}
		for j, r := range s.Records {
			keyed := r.Key != nil || r.KeyEncoded != nil
			switch {
			case r.Value == nil && r.ValueEncoded == nil:
				return fmt.Errorf("database %q, store %q: record %d has no value", db.Name, s.Name, j)
			case inline && keyed:
				return fmt.Errorf("database %q, store %q: record %d has a key, but the store takes keys from its values", db.Name, s.Name, j)
			case !inline && !keyed && !s.AutoIncrement:
				return fmt.Errorf("database %q, store %q: record %d has no key, and the store makes none", db.Name, s.Name, j)
			}
		}
		// The page reads them as arrays.
		s.Records, s.Indexes = nonNil(s.Records), nonNil(s.Indexes)
	}
	db.Stores = nonNil(db.Stores)
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// readIndexedDB reads every database of the origin fp's document is on.
func readIndexedDB(ctx context.Context, fp *Page, origin string) ([]IndexedDB, error) {
	var dbs []IndexedDB
	if err := fp.CallJS(ctx, idbSaveJS, &dbs); err != nil {
		return nil, fmt.Errorf("IndexedDB of %s: %w", origin, err)
	}
	return dbs, nil
}

// writeIndexedDB makes dbs in the origin fp's document is on, each in
// place of the database of its name (see js/idb_load.js), and returns
// the names of those it made where there were none.
func writeIndexedDB(ctx context.Context, fp *Page, origin string, dbs []IndexedDB) ([]string, error) {
	var made []string
	if err := fp.CallJS(ctx, idbLoadJS, &made, dbs); err != nil {
		return nil, fmt.Errorf("IndexedDB of %s: %w", origin, err)
	}
	return made, nil
}

// deleteIndexedDB deletes the databases named of the origin fp's
// document is on.
func deleteIndexedDB(ctx context.Context, fp *Page, origin string, names []string) error {
	if err := fp.CallJS(ctx, idbDeleteJS, nil, names); err != nil {
		return fmt.Errorf("IndexedDB of %s: %w", origin, err)
	}
	return nil
}
