import { useId } from 'react';

// boring-avatars' "beam" (MIT, boring-avatars 2.0.4, dist/index.js), the app's default avatar, as a component of our
// own: the listings show one per card, and the package's other five variants (20 KB with them) stay out of a guest's
// pages. Same arithmetic, same SVG: avatar.test.tsx compares the two for several names.

const SIZE = 36;

function hashCode(name: string) {
  let hash = 0;
  for (let i = 0; i < name.length; i++) {
    hash = (hash << 5) - hash + name.charCodeAt(i);
    hash = hash & hash;
  }
  return Math.abs(hash);
}

const digit = (n: number, place: number) => Math.floor((n / Math.pow(10, place)) % 10);
const boolean = (n: number, place: number) => !(digit(n, place) % 2);
const unit = (n: number, range: number, place?: number) => {
  const value = n % range;
  return place && digit(n, place) % 2 === 0 ? -value : value;
};
const pick = (n: number, colors: readonly string[]) => colors[n % colors.length]!;

/** Black or white, whichever reads on the colour (YIQ). */
function contrast(hex: string) {
  const h = hex.startsWith('#') ? hex.slice(1) : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
  return (r * 299 + g * 587 + b * 114) / 1000 >= 128 ? '#000000' : '#FFFFFF';
}

function beam(name: string, colors: readonly string[]) {
  const n = hashCode(name);
  const wrapperColor = pick(n, colors);
  const preX = unit(n, 10, 1);
  const wrapperTranslateX = preX < 5 ? preX + SIZE / 9 : preX;
  const preY = unit(n, 10, 2);
  const wrapperTranslateY = preY < 5 ? preY + SIZE / 9 : preY;
  return {
    wrapperColor,
    faceColor: contrast(wrapperColor),
    backgroundColor: pick(n + 13, colors),
    wrapperTranslateX,
    wrapperTranslateY,
    wrapperRotate: unit(n, 360),
    wrapperScale: 1 + unit(n, SIZE / 12) / 10,
    isMouthOpen: boolean(n, 2),
    isCircle: boolean(n, 1),
    eyeSpread: unit(n, 5),
    mouthSpread: unit(n, 3),
    faceRotate: unit(n, 10, 3),
    faceTranslateX: wrapperTranslateX > SIZE / 6 ? wrapperTranslateX / 2 : unit(n, 8, 1),
    faceTranslateY: wrapperTranslateY > SIZE / 6 ? wrapperTranslateY / 2 : unit(n, 7, 2),
  };
}

export interface BeamAvatarProps extends Omit<React.SVGProps<SVGSVGElement>, 'name'> {
  name: string;
  colors: readonly string[];
  size: number | string;
  square?: boolean;
}

export function BeamAvatar({ name, colors, size, square = false, ...rest }: BeamAvatarProps) {
  const d = beam(name, colors);
  const mask = useId();
  const half = SIZE / 2;
  return (
    <svg viewBox={`0 0 ${SIZE} ${SIZE}`} fill="none" role="img" xmlns="http://www.w3.org/2000/svg" width={size} height={size} {...rest}>
      <mask id={mask} maskUnits="userSpaceOnUse" x={0} y={0} width={SIZE} height={SIZE}>
        <rect width={SIZE} height={SIZE} rx={square ? undefined : SIZE * 2} fill="#FFFFFF" />
      </mask>
      <g mask={`url(#${mask})`}>
        <rect width={SIZE} height={SIZE} fill={d.backgroundColor} />
        <rect
          x="0"
          y="0"
          width={SIZE}
          height={SIZE}
          transform={`translate(${d.wrapperTranslateX} ${d.wrapperTranslateY}) rotate(${d.wrapperRotate} ${half} ${half}) scale(${d.wrapperScale})`}
          fill={d.wrapperColor}
          rx={d.isCircle ? SIZE : SIZE / 6}
        />
        <g transform={`translate(${d.faceTranslateX} ${d.faceTranslateY}) rotate(${d.faceRotate} ${half} ${half})`}>
          {d.isMouthOpen ? (
            <path d={`M15 ${19 + d.mouthSpread}c2 1 4 1 6 0`} stroke={d.faceColor} fill="none" strokeLinecap="round" />
          ) : (
            <path d={`M13,${19 + d.mouthSpread} a1,0.75 0 0,0 10,0`} fill={d.faceColor} />
          )}
          <rect x={14 - d.eyeSpread} y={14} width={1.5} height={2} rx={1} stroke="none" fill={d.faceColor} />
          <rect x={20 + d.eyeSpread} y={14} width={1.5} height={2} rx={1} stroke="none" fill={d.faceColor} />
        </g>
      </g>
    </svg>
  );
}
