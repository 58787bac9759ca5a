import { useEffect, useState, type FormEvent } from 'react';
import { Field } from './components';
import { useT } from './i18n';

/** What the lists filter by: a whole address (something@somewhere); the server compares it case-insensitively. */
const wholeEmail = /^[^\s@]+@[^\s@]+$/;

/**
 * A list's filter by one customer email (the payments list, the customers list): typed, checked
 * when submitted (a half-typed address is said to be one, not sent), applied by `onApply`, and
 * cleared by its button. `value` is the applied email, from the URL: back and forward bring the
 * field along.
 */
export function EmailFilter({ id, value, onApply }: { id: string; value: string; onApply: (email: string) => void }) {
  const t = useT();
  const [typed, setTyped] = useState(value);
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    setTyped(value);
    setInvalid(false);
  }, [value]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const email = typed.trim();
    if (email && !wholeEmail.test(email)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    onApply(email);
  };
  const clear = () => {
    setTyped('');
    setInvalid(false);
    onApply('');
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: form role=search is the search landmark every supported browser knows; <search> is too new.
    <form className="filters" onSubmit={submit} role="search" aria-label={t('emailFilter.title')} noValidate>
      <Field id={id} label={t('emailFilter.email')} hint={invalid ? t('emailFilter.invalid') : undefined}>
        <input
          id={id}
          type="email"
          value={typed}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-hint` : undefined}
          onChange={(e) => {
            setTyped(e.target.value);
            setInvalid(false);
          }}
        />
      </Field>
      <button type="submit">{t('emailFilter.submit')}</button>
      {value && (
        <button type="button" className="secondary" onClick={clear}>
          {t('emailFilter.clear')}
        </button>
      )}
    </form>
  );
}
