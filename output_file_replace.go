package wsql

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wsql/wsql/checkpoint"
)

// An OutputFile's results go to a hidden file beside it that replaces it
// (a rename, atomic) only when the run succeeds or is stopped, so a run
// that fails, or a process that dies, leaves the file as it was:
//
//   - CreateOutputFile writes `.NAME.tmp`, created empty; a run that
//     fails removes it (one killed leaves it, and the next reuses it).
//   - OpenOutputFile, for a run that may resume from checkpoints, works
//     on `.NAME.partial`, the results up to the last checkpoint. A run
//     that fails or dies leaves it for the restart, which continues it;
//     when it is missing, the restart starts from a copy of the file
//     (that of a run that completed, or was stopped and renamed it), so a
//     kill at any moment, before or after the rename, resumes the same.
//
// A device or a pipe (/dev/stdout) cannot be replaced: it is written as
// output comes.

// openReplacing opens what the run writes: the hidden file, or a device
// or a pipe itself.
func (o *OutputFile) openReplacing(create bool) error {
	o.target = o.path
	st, err := os.Stat(o.path)
	if err != nil {
		st = nil // missing (or unreadable: reported when it is replaced)
	} else if !st.Mode().IsRegular() {
		flags := os.O_RDWR
		if !o.keep {
			flags |= os.O_TRUNC
		}
		f, err := os.OpenFile(o.path, flags, 0)
		if err != nil {
			return err
		}
		o.f = f
		return nil
	} else if real, err := filepath.EvalSymlinks(o.path); err == nil {
		o.target = real // a link keeps pointing at the file it names
	}
	if !o.keep {
		tmp := o.besideTarget(".tmp")
		f, err := createLike(tmp, st)
		if err != nil {
			return fmt.Errorf("output file %s: results are written to %s beside it, then renamed over it: %w", o.path, tmp, err)
		}
		o.f, o.regular, o.tmp, o.made = f, true, tmp, true
		return nil
	}
	staging := o.besideTarget(".partial")
	f, err := os.OpenFile(staging, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) && (st != nil || create) {
		if st != nil {
			// the results so far are the file's: a restore checks them
			err = copyFile(o.target, staging, o.besideTarget(".tmp"), st)
		} else {
			f, err = os.OpenFile(staging, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
			if err == nil {
				f.Close()
			}
		}
		if err == nil {
			o.made = true
			f, err = os.OpenFile(staging, os.O_RDWR, 0)
		}
	}
	if err != nil {
		if !create && errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return o.fail(err)
	}
	o.f, o.regular, o.tmp = f, true, staging
	return nil
}

// besideTarget is the hidden file `.NAME<suffix>` beside the file.
func (o *OutputFile) besideTarget(suffix string) string {
	dir, name := filepath.Split(o.target)
	return filepath.Join(dir, "."+name+suffix)
}

// createLike creates (or empties) the file at path with like's
// permissions, if like is not nil.
func createLike(path string, like os.FileInfo) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil || like == nil {
		return f, err
	}
	if err := f.Chmod(like.Mode().Perm()); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return f, nil
}

// copyFile copies src to dst through via, renamed to dst once complete
// and durable: a crash never leaves a part of src at dst.
func copyFile(src, dst, via string, st os.FileInfo) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := createLike(via, st)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in) // copy_file_range where the system has it
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(via, dst)
	}
	if err != nil {
		os.Remove(via)
		return err
	}
	return checkpoint.SyncDir(filepath.Dir(dst))
}

// replace renames the closed, synced hidden file over the file.
func (o *OutputFile) replace() error {
	err := os.Rename(o.tmp, o.target)
	if err == nil {
		err = checkpoint.SyncDir(filepath.Dir(o.target))
	}
	if err != nil {
		return o.fail(err)
	}
	return nil
}

// disposable says whether the hidden file of a run that did not complete
// can go: CreateOutputFile's always; OpenOutputFile's only when it is
// this run's copy of the file, unchanged (a restore refused), as a later
// restart needs what the checkpoints committed to it.
func (o *OutputFile) disposable() bool {
	return !o.keep || o.made && !o.modified
}
