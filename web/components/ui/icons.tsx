import type { IconName } from './icon-names.ts';

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

// lucide-react's names, so a page imports `{ X, Heart }` from here as it did from lucide-react. The symbol ids are
// literals (checked against icon-names.ts by the type), so the browser gets no table of names.
export const ArrowLeft = /* @__PURE__ */ icon('arrow-left');
export const BadgeCheck = /* @__PURE__ */ icon('badge-check');
export const Briefcase = /* @__PURE__ */ icon('briefcase');
export const CalendarClock = /* @__PURE__ */ icon('calendar-clock');
export const CalendarDays = /* @__PURE__ */ icon('calendar-days');
export const Check = /* @__PURE__ */ icon('check');
export const ChevronDown = /* @__PURE__ */ icon('chevron-down');
export const ExternalLink = /* @__PURE__ */ icon('external-link');
export const Eye = /* @__PURE__ */ icon('eye');
export const EyeOff = /* @__PURE__ */ icon('eye-off');
export const FileText = /* @__PURE__ */ icon('file-text');
export const Flag = /* @__PURE__ */ icon('flag');
export const Folder = /* @__PURE__ */ icon('folder');
export const Heart = /* @__PURE__ */ icon('heart');
export const ImageIcon = /* @__PURE__ */ icon('image');
export const ImageOff = /* @__PURE__ */ icon('image-off');
export const ImagePlus = /* @__PURE__ */ icon('image-plus');
export const LogOut = /* @__PURE__ */ icon('log-out');
export const MailCheck = /* @__PURE__ */ icon('mail-check');
export const MapPin = /* @__PURE__ */ icon('map-pin');
export const Menu = /* @__PURE__ */ icon('menu');
export const MessageCircle = /* @__PURE__ */ icon('message-circle');
export const MessageSquareText = /* @__PURE__ */ icon('message-square-text');
export const Paperclip = /* @__PURE__ */ icon('paperclip');
export const Pause = /* @__PURE__ */ icon('pause');
export const Pencil = /* @__PURE__ */ icon('pencil');
export const Play = /* @__PURE__ */ icon('play');
export const Plus = /* @__PURE__ */ icon('plus');
export const RefreshCw = /* @__PURE__ */ icon('refresh-cw');
export const RotateCcw = /* @__PURE__ */ icon('rotate-ccw');
export const Search = /* @__PURE__ */ icon('search');
export const Send = /* @__PURE__ */ icon('send');
export const Settings = /* @__PURE__ */ icon('settings');
export const Shield = /* @__PURE__ */ icon('shield');
export const ShoppingBag = /* @__PURE__ */ icon('shopping-bag');
export const SlidersHorizontal = /* @__PURE__ */ icon('sliders-horizontal');
export const Star = /* @__PURE__ */ icon('star');
export const Trash2 = /* @__PURE__ */ icon('trash');
export const User = /* @__PURE__ */ icon('user');
export const Wallet = /* @__PURE__ */ icon('wallet');
export const X = /* @__PURE__ */ icon('x');
