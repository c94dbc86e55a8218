import { ICONS, type IconName } from './icon-names.ts';

// Icons from the sprite that vite.sprite.ts builds out of lucide's data: an <svg> of the icon's size with a <use> of
// its symbol, which carries lucide's stroke (2 units, round, the text colour). Decorative unless labelled.

/** The sprite's URL, fixed at build time; tests and tools outside Vite fall back to a stable name. */
const SPRITE: string = import.meta.env.VITE_ICON_SPRITE ?? '/assets/icons.svg';

export interface IconProps {
  size?: number | string;
  className?: string;
  /** 'currentColor' fills the shape (a chosen heart, a rating star); lucide's icons are outlines by default. */
  fill?: string;
  'aria-hidden'?: boolean | 'true' | 'false';
  'aria-label'?: string;
  focusable?: 'true' | 'false';
}

export function Icon({ name, size = 24, className, fill = 'none', ...rest }: IconProps & { name: IconName }) {
  return (
    <svg
      width={size}
      height={size}
      fill={fill}
      className={className ? `icon ${className}` : 'icon'}
      aria-hidden={rest['aria-label'] ? undefined : true}
      {...rest}
    >
      <use href={`${SPRITE}#${name}`} />
    </svg>
  );
}

const icon = (name: IconName) => {
  const Named = (props: IconProps) => <Icon name={name} {...props} />;
  return Named;
};

// lucide-react's names, so a page imports `{ X, Heart }` from here as it did from lucide-react.
export const ArrowLeft = /* @__PURE__ */ icon(ICONS.ArrowLeft);
export const BadgeCheck = /* @__PURE__ */ icon(ICONS.BadgeCheck);
export const Briefcase = /* @__PURE__ */ icon(ICONS.Briefcase);
export const CalendarClock = /* @__PURE__ */ icon(ICONS.CalendarClock);
export const CalendarDays = /* @__PURE__ */ icon(ICONS.CalendarDays);
export const Check = /* @__PURE__ */ icon(ICONS.Check);
export const ChevronDown = /* @__PURE__ */ icon(ICONS.ChevronDown);
export const ExternalLink = /* @__PURE__ */ icon(ICONS.ExternalLink);
export const Eye = /* @__PURE__ */ icon(ICONS.Eye);
export const EyeOff = /* @__PURE__ */ icon(ICONS.EyeOff);
export const FileText = /* @__PURE__ */ icon(ICONS.FileText);
export const Flag = /* @__PURE__ */ icon(ICONS.Flag);
export const Folder = /* @__PURE__ */ icon(ICONS.Folder);
export const Heart = /* @__PURE__ */ icon(ICONS.Heart);
export const ImageIcon = /* @__PURE__ */ icon(ICONS.ImageIcon);
export const ImageOff = /* @__PURE__ */ icon(ICONS.ImageOff);
export const ImagePlus = /* @__PURE__ */ icon(ICONS.ImagePlus);
export const LogOut = /* @__PURE__ */ icon(ICONS.LogOut);
export const MailCheck = /* @__PURE__ */ icon(ICONS.MailCheck);
export const MapPin = /* @__PURE__ */ icon(ICONS.MapPin);
export const Menu = /* @__PURE__ */ icon(ICONS.Menu);
export const MessageCircle = /* @__PURE__ */ icon(ICONS.MessageCircle);
export const MessageSquareText = /* @__PURE__ */ icon(ICONS.MessageSquareText);
export const Paperclip = /* @__PURE__ */ icon(ICONS.Paperclip);
export const Pause = /* @__PURE__ */ icon(ICONS.Pause);
export const Pencil = /* @__PURE__ */ icon(ICONS.Pencil);
export const Play = /* @__PURE__ */ icon(ICONS.Play);
export const Plus = /* @__PURE__ */ icon(ICONS.Plus);
export const RefreshCw = /* @__PURE__ */ icon(ICONS.RefreshCw);
export const RotateCcw = /* @__PURE__ */ icon(ICONS.RotateCcw);
export const Search = /* @__PURE__ */ icon(ICONS.Search);
export const Send = /* @__PURE__ */ icon(ICONS.Send);
export const Settings = /* @__PURE__ */ icon(ICONS.Settings);
export const Shield = /* @__PURE__ */ icon(ICONS.Shield);
export const ShoppingBag = /* @__PURE__ */ icon(ICONS.ShoppingBag);
export const SlidersHorizontal = /* @__PURE__ */ icon(ICONS.SlidersHorizontal);
export const Star = /* @__PURE__ */ icon(ICONS.Star);
export const Trash2 = /* @__PURE__ */ icon(ICONS.Trash2);
export const User = /* @__PURE__ */ icon(ICONS.User);
export const Wallet = /* @__PURE__ */ icon(ICONS.Wallet);
export const X = /* @__PURE__ */ icon(ICONS.X);
