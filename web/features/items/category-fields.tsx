import { SelectField } from '../../components/ui/form.tsx';
import { useShell } from '../../lib/use-shell.ts';
import type { FieldErrors } from './values.ts';

interface CategoryFieldsProps {
  category: string;
  sub: string;
  errors: FieldErrors;
  onCategory: (slug: string) => void;
  onSub: (slug: string) => void;
  onBlur: (field: 'category' | 'sub') => void;
}

/** Category → sub-category from the catalogue the root loader already holds; both are slugs. */
export function CategoryFields({ category, sub, errors, onCategory, onSub, onBlur }: CategoryFieldsProps) {
  const { catalogue } = useShell();
  const chosen = catalogue.find((c) => c.slug === category);
  return (
    <div className="form__row">
      <SelectField
        label="Категория"
        name="category"
        value={category}
        placeholder="Выберите категорию"
        options={catalogue.map((c) => ({ value: c.slug, label: c.title }))}
        errors={errors}
        onChange={(e) => onCategory(e.target.value)}
        onBlur={() => onBlur('category')}
        required
      />
      <SelectField
        label="Подкатегория"
        name="sub"
        value={sub}
        placeholder={chosen ? (chosen.subs.length ? 'Не выбрана' : 'Нет подкатегорий') : 'Сначала выберите категорию'}
        options={(chosen?.subs ?? []).map((s) => ({ value: s.slug, label: s.title }))}
        errors={errors}
        onChange={(e) => onSub(e.target.value)}
        onBlur={() => onBlur('sub')}
        disabled={!chosen || chosen.subs.length === 0}
      />
    </div>
  );
}
