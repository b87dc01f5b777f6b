import { useEffect, useId, useState, type KeyboardEvent, type Ref } from 'react';

export interface ComboOption {
  id: string;
  label: string;
}

interface ComboboxProps {
  /** The field's visible label ("Make"). */
  label: string;
  /** What one option and several are called, for what is announced ("model", "models"). */
  noun: [one: string, many: string];
  options: ComboOption[];
  /** The chosen option's id, or null. */
  value: string | null;
  onChange: (id: string | null) => void;
  /** After an option was chosen from the list (Enter, a click): the next field may take the focus. */
  onPicked?: () => void;
  disabled?: boolean;
  /** Its options are on their way: said in the field (which takes typing meanwhile). */
  loading?: boolean;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** Focus starts here when the dialog opens (Modal's `data-autofocus`). */
  autoFocus?: boolean;
}

const wordsOf = (typed: string) => typed.toLowerCase().split(/\s+/).filter(Boolean);

/** Where a word of a name may start: its beginning, after a space or a sign, and where letters and digits meet. */
function startsAtBoundary(label: string, word: string): boolean {
  const text = label.toLowerCase();
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const here = text[at];
    if (
      at === 0 ||
      !/[a-z0-9]/.test(before) ||
      (/[0-9]/.test(before) && /[a-z]/.test(here)) ||
      (/[a-z]/.test(before) && /[0-9]/.test(here))
    )
      return true;
  }
  return false;
}

/**
 * The options a typed text leaves: those where each typed word starts a word of the name ("h" finds Honda and
 * Husqvarna, not Yamaha; "crf 450" and "450r" find CRF450R), else those merely holding each word ("19" finds
 * 2019, "maha" Yamaha). Case does not matter, nor the order of the words.
 */
export function narrow<T extends ComboOption>(options: T[], typed: string): T[] {
  const words = wordsOf(typed);
  if (!words.length) return options;
  const starting = options.filter((o) => words.every((w) => startsAtBoundary(o.label, w)));
  return starting.length ? starting : options.filter((o) => words.every((w) => o.label.toLowerCase().includes(w)));
}

/**
 * A field whose list narrows as one types (the WAI-ARIA combobox with a list, selection by hand): Down and Up open
 * the list and move through it, Enter chooses, Escape closes the list (then empties the field), a click chooses;
 * what is typed narrows the options (`narrow`). How many options match is announced politely. Leaving the field
 * with the exact name of an option typed chooses it.
 */
export function Combobox({
  label,
  noun,
  options,
  value,
  onChange,
  onPicked,
  disabled = false,
  loading = false,
  placeholder,
  inputRef,
  autoFocus,
}: ComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const chosen = options.find((o) => o.id === value) ?? null;
  const [text, setText] = useState(chosen?.label ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  // The chosen option's own name shows every option again, so the list can be reopened to change it.
  const shown = chosen && text === chosen.label ? options : narrow(options, text);
  const activeOption = open ? shown[Math.min(active, shown.length - 1)] : undefined;
  const optionId = (option: ComboOption) => `${id}-option-${option.id}`;

  useEffect(() => {
    if (!activeOption) return;
    document.getElementById(optionId(activeOption))?.scrollIntoView?.({ block: 'nearest' });
  });

  const choose = (option: ComboOption, picked: boolean) => {
    setText(option.label);
    setOpen(false);
    setAnnouncement('');
    if (option.id !== value) onChange(option.id);
    if (picked) onPicked?.();
  };
  const openAt = (index: number) => {
    setOpen(true);
    setActive(Math.max(0, index));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = shown.length;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) openAt(chosen ? shown.indexOf(chosen) : 0);
        else if (count) setActive((Math.min(active, count - 1) + 1) % count);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) openAt(chosen ? shown.indexOf(chosen) : count - 1);
        else if (count) setActive((Math.min(active, count - 1) - 1 + count) % count);
        break;
      case 'Enter':
        if (activeOption) {
          event.preventDefault();
          choose(activeOption, true);
        }
        break;
      case 'Escape':
        // Handled here, it does not close the dialog around the field: the list first, then what was typed.
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
        } else if (text) {
          event.preventDefault();
          event.stopPropagation();
          setText('');
          if (value !== null) onChange(null);
        }
        break;
    }
  };

  const onBlur = () => {
    setOpen(false);
    const exact = options.find((o) => o.label.toLowerCase() === text.trim().toLowerCase());
    if (exact && exact.id !== value) choose(exact, false);
  };

  const many = shown.length === 1 ? `1 ${noun[0]} matches` : `${shown.length} ${noun[1]} match`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-semibold">
        {label}
      </label>
      <input
        id={id}
        ref={inputRef}
        type="text"
        role="combobox"
        className="input input-bordered w-full"
        aria-autocomplete="list"
        aria-expanded={open && shown.length > 0}
        aria-controls={listId}
        aria-activedescendant={activeOption ? optionId(activeOption) : undefined}
        aria-busy={loading || undefined}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        placeholder={loading ? `Loading ${noun[1]}…` : placeholder}
        value={text}
        data-autofocus={autoFocus || undefined}
        onChange={(event) => {
          const typed = event.target.value;
          setText(typed);
          openAt(0);
          if (value !== null) onChange(null);
          const count = narrow(options, typed).length;
          setAnnouncement(
            count === 0 ? `No ${noun[0]} matches` : count === 1 ? `1 ${noun[0]} matches` : `${count} ${noun[1]} match`,
          );
        }}
        onClick={() => (open ? setOpen(false) : openAt(chosen ? shown.indexOf(chosen) : 0))}
        onKeyDown={onKeyDown}
        onBlur={onBlur}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={`${label}: ${many}`}
        hidden={!open || shown.length === 0}
        className="max-h-56 overflow-y-auto rounded-box border border-base-300 bg-base-100 p-1 shadow"
      >
        {shown.map((option) => (
          <li
            key={option.id}
            id={optionId(option)}
            role="option"
            aria-selected={option === activeOption}
            className={`cursor-pointer rounded-field px-3 py-2 ${option === activeOption ? 'bg-primary text-primary-content' : 'hover:bg-base-200'}`}
            // Keeps focus in the field: the click chooses, and typing goes on there.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(option, true)}
          >
            {option.label}
          </li>
        ))}
      </ul>
      {open && text && shown.length === 0 && (
        <p className="text-sm text-base-content/80">
          No {noun[0]} matches “{text}”.
        </p>
      )}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}
