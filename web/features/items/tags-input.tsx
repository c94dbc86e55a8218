import { useState, type KeyboardEvent } from 'react';
import { X } from '../../components/ui/icons.tsx';
import { Field } from '../../components/ui/form.tsx';
import { MAX_TAG_LENGTH, MAX_TAGS, addTags, splitTags } from './tags.ts';

interface TagsInputProps {
  label: string;
  value: string[];
  onChange: (tags: string[]) => void;
  onBlur?: () => void;
  /** Messages for the whole list and for single tags ('tags', 'tags.2'). */
  error?: string;
}

/** Tags as chips: Enter or a comma adds what was typed, Backspace in the empty box removes the last one. */
export function TagsInput({ label, value, onChange, onBlur, error }: TagsInputProps) {
  const [text, setText] = useState('');
  const full = value.length >= MAX_TAGS;

  function commit(raw = text) {
    const tags = splitTags(raw);
    if (tags.length) onChange(addTags(value, tags));
    setText('');
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Backspace' && text === '' && value.length) {
      onChange(value.slice(0, -1));
    }
  }

  return (
    <Field label={label} error={error} hint={`До ${MAX_TAGS} тегов: введите слово и нажмите Enter или запятую`}>
      {(a11y) => (
        <div className={`tags-input input${full ? ' tags-input--full' : ''}`}>
          {value.length > 0 && (
            <ul className="tags-input__list" aria-label="Добавленные теги">
              {value.map((tag) => (
                <li key={tag} className="tag-chip">
                  <span>{tag}</span>
                  <button
                    type="button"
                    className="tag-chip__remove"
                    aria-label={`Удалить тег «${tag}»`}
                    onClick={() => onChange(value.filter((t) => t !== tag))}
                  >
                    <X size={14} aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <input
            {...a11y}
            className="tags-input__field"
            value={text}
            maxLength={MAX_TAG_LENGTH * 3}
            placeholder={full ? 'Добавлено 10 тегов' : value.length ? 'Ещё тег' : 'Например: логотип'}
            disabled={full}
            onChange={(e) => (e.target.value.includes(',') ? commit(e.target.value) : setText(e.target.value))}
            onKeyDown={onKeyDown}
            onBlur={() => {
              commit();
              onBlur?.();
            }}
            enterKeyHint="enter"
          />
        </div>
      )}
    </Field>
  );
}
