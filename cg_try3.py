from ttr_nb.cardgame import engine as E
from ttr_nb.cardgame.bots import GreedyBot, RandomBot
n=2; seed=0
s = E.new_game("cardgame", n, seed)
bots=[GreedyBot(seed), RandomBot(seed)]
for i in range(3000):
    if s.phase=="over": break
    seat=E.to_move(s)[0]
    a,why=bots[seat].choose(s,seat)
    s=E.apply(s,a)
    if i>2900: print(s.phase, len(s.deck), a, why)
print(i)
