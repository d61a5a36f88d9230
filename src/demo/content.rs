//! Longer texts of the demo: the markdown showcase, the long reasoning block and the long guide.

/// The "markdown" answer: every construct the renderer supports, then hostile content the
/// client must neutralise (raw HTML, a `javascript:` link, a remote image).
pub const MARKDOWN_SHOWCASE: &str = "# Markdown showcase

This answer exercises the renderer: *emphasis*, **strong**, ***both***, `inline code`, \
~~strikethrough~~ and a [link to the AG-UI docs](https://docs.ag-ui.com/) plus a \
[mail link](mailto:offsite@example.com).

## Lists

1. Book the venue
2. Send the invitations
   - to the team
   - to the two guests from the Porto office
3. Collect dietary needs

- Plain bullet
- Another bullet with a `code span`

### Task list

- [x] Pick the city
- [x] Find a dinner venue
- [ ] Confirm the deposit
- [ ] Print the badges

## Table

| Day | Plan | Budget |
|:----|:-----|-------:|
| Thu | Dinner in Alfama | €540 |
| Fri | Workshop at LX Factory | €1,900 |
| Sat | Free day in Belém | €0 |

## Code

```rust
fn per_person(total_eur: u32, people: u32) -> u32 {
    total_eur / people.max(1)
}

fn main() {
    println!(\"{} EUR each\", per_person(6_000, 12));
}
```

> A blockquote: *\"The best offsites have one great dinner and nothing scheduled
> after 22:00.\"*
>
> — every team lead, eventually

---

## Hostile content (must be neutralised)

The client must show the following as harmless text or drop it — never run it:

<script>alert(1)</script>

<img src=x onerror=alert(1)>

A link with a dangerous scheme: [click](javascript:alert(1))

A remote image the client must not load by itself: ![x](https://example.com/x.png)

If none of that did anything, the sanitiser works.
";

/// The "think" reasoning: several paragraphs (about three seconds of streaming).
pub const LONG_REASONING: &str = "The question is really about ordering three days: a group \
dinner, a working session and some free time. Eight people, one city, and a budget that is \
comfortable but not lavish.\n\n\
Energy is highest on the first evening, right after everyone arrives. A shared dinner then \
breaks the ice, and the conversations carry into the workshop. If the dinner came last, half \
the team would already be thinking about flights.\n\n\
The workshop needs a quiet room with daylight, a screen and space to move around. LX Factory \
has converted lofts that rent by the day, it is easy to reach from Baixa by tram or taxi, and \
lunch is a two-minute walk away. Friday is the natural slot: people are rested and nobody is \
travelling yet.\n\n\
Saturday should stay unstructured. Belém is close, has the monastery, the tower and the \
custard tarts, and people can leave for the airport straight from there. Scheduling anything \
on the last day tends to fail because departure times differ.\n\n\
Weather in mid-May is mild, usually around twenty degrees, so outdoor plans are safe but a \
rain option for the free day is still sensible.\n\n\
So: dinner Thursday, workshop Friday, free day Saturday. Keep it short in the answer.";

/// One neighbourhood section of the long guide.
struct Place {
    name: &'static str,
    vibe: &'static str,
    landmark: &'static str,
    food: &'static str,
    getting_there: &'static str,
    tip: &'static str,
    budget: u32,
}

const PLACES: &[Place] = &[
    Place {
        name: "Alfama",
        vibe: "the oldest quarter, a maze of stairways and washing lines that survived the 1755 earthquake",
        landmark: "the Castelo de São Jorge and the viewpoint at Santa Luzia",
        food: "grilled sardines, octopus salad and a glass of vinho verde in a family tasca",
        getting_there: "tram 28 from Baixa, or a twenty-minute uphill walk",
        tip: "go in the early evening, when the fado houses open and the light turns gold",
        budget: 35,
    },
    Place {
        name: "Baixa",
        vibe: "the grid of straight streets rebuilt after the earthquake, with grand squares and busy shopping lanes",
        landmark: "the Praça do Comércio and the Rua Augusta arch",
        food: "a bifana sandwich at a counter bar and a ginjinha cherry liqueur in a paper cup",
        getting_there: "the green or blue metro line to Baixa-Chiado",
        tip: "climb the arch for a cheap view over the river and the square",
        budget: 25,
    },
    Place {
        name: "Chiado",
        vibe: "the literary and theatre district, elegant and a little formal",
        landmark: "the Café A Brasileira and the ruins of the Carmo convent",
        food: "pastries at a historic café and a long lunch in a bistro",
        getting_there: "the Baixa-Chiado metro station, which has the longest escalators in town",
        tip: "the bookshop on Rua do Carmo claims to be the oldest still operating in the world",
        budget: 40,
    },
    Place {
        name: "Bairro Alto",
        vibe: "quiet by day and packed by night, when the bars spill into the narrow streets",
        landmark: "the São Pedro de Alcântara viewpoint",
        food: "petiscos — small plates — shared standing up between bars",
        getting_there: "the Glória funicular from Restauradores",
        tip: "start late; nothing much happens before eleven",
        budget: 30,
    },
    Place {
        name: "Príncipe Real",
        vibe: "leafy and calm, with concept stores in old palaces and a garden under a giant cedar",
        landmark: "the Jardim do Príncipe Real and its cedar tree",
        food: "brunch in a garden café and natural wine in the evening",
        getting_there: "a short walk up from Bairro Alto, or bus 758",
        tip: "the Saturday market in the garden sells local produce and ceramics",
        budget: 45,
    },
    Place {
        name: "Belém",
        vibe: "wide, green and monumental, on the river where the caravels once left",
        landmark: "the Jerónimos Monastery and the Belém Tower",
        food: "the original custard tarts, warm, with cinnamon and sugar",
        getting_there: "tram 15 from Praça da Figueira, or the train from Cais do Sodré",
        tip: "buy monastery tickets online; the queue in summer is long",
        budget: 30,
    },
    Place {
        name: "LX Factory",
        vibe: "a nineteenth-century textile complex turned into studios, shops and restaurants",
        landmark: "the bookshop in the old printing hall",
        food: "anything from ramen to Portuguese tapas under the 25 de Abril bridge",
        getting_there: "tram 15 or a short taxi ride from the centre",
        tip: "several lofts rent by the day for workshops, with projectors included",
        budget: 35,
    },
    Place {
        name: "Cais do Sodré",
        vibe: "the old port district, once rough, now the busiest nightlife strip by the river",
        landmark: "the Time Out Market and the Pink Street",
        food: "a tasting tour of the market stalls, then a drink on the river front",
        getting_there: "the green metro line, the train to Cascais or the ferry",
        tip: "the market is calmer right at opening time",
        budget: 30,
    },
    Place {
        name: "Graça",
        vibe: "a residential hilltop with two of the best viewpoints in the city",
        landmark: "the Miradouro da Senhora do Monte",
        food: "a simple lunch of grilled chicken and salad at a neighbourhood place",
        getting_there: "tram 28, which stops right below the viewpoints",
        tip: "come at sunset and bring something to drink",
        budget: 20,
    },
    Place {
        name: "Mouraria",
        vibe: "the multicultural quarter where fado was born, with small squares and murals",
        landmark: "the Largo da Severa and the tiled street of fado portraits",
        food: "curries, dumplings and grilled fish from a dozen countries",
        getting_there: "a walk up from the Martim Moniz metro station",
        tip: "the guided walks run by local residents are worth it",
        budget: 20,
    },
    Place {
        name: "Parque das Nações",
        vibe: "the modern riverside district built for Expo 98, flat and spacious",
        landmark: "the Oceanário, one of the largest aquariums in Europe",
        food: "seafood restaurants along the promenade",
        getting_there: "the red metro line to Oriente, which also serves the airport",
        tip: "rent bikes along the river; the path is flat for kilometres",
        budget: 40,
    },
    Place {
        name: "Sintra",
        vibe: "a hill town of palaces and forests, a world away from the city",
        landmark: "the Pena Palace and the Quinta da Regaleira initiation well",
        food: "travesseiros pastries and a long lunch in the old town",
        getting_there: "the train from Rossio, forty minutes",
        tip: "book palace tickets ahead and take the bus up the hill",
        budget: 50,
    },
    Place {
        name: "Cascais",
        vibe: "a seaside town with beaches, a marina and a long coastal walk",
        landmark: "the Boca do Inferno cliffs",
        food: "fresh fish by the kilo at a harbour restaurant",
        getting_there: "the train from Cais do Sodré, along the coast",
        tip: "walk the promenade to Estoril and take the train back",
        budget: 45,
    },
];

/// The "long" answer: a guide of about 3,000 words, built from the places above.
pub fn long_guide() -> String {
    let mut t = String::from(
        "# The long guide to a Lisbon team offsite\n\n\
         This is a deliberately long answer, so you can check how the conversation scrolls, how \
         the renderer copes with many sections, and whether the page stays responsive while the \
         text keeps arriving. It walks through thirteen neighbourhoods and day trips, with what \
         each one is like, how to get there, what to eat and what it costs for a group.\n\n\
         > Rule of thumb: plan one anchor activity per day and leave the rest open. Twelve \
         people move slowly, and the best moments of an offsite are rarely the scheduled ones.\n\n",
    );
    for (i, p) in PLACES.iter().enumerate() {
        let n = i + 1;
        let group = p.budget * 12;
        t.push_str(&format!(
            "## {n}. {name}\n\n\
             {name} is {vibe}. For a team it works best as a half-day visit: long enough to \
             wander without a plan, short enough that nobody gets tired or bored. The main sight \
             is {landmark}, and it is worth going there first, before the crowds, and then \
             letting people drift off in small groups.\n\n\
             The food is part of the experience. Expect {food}. Most places are happy to seat a \
             group if you call a day ahead, and many will offer a set menu so that nobody has to \
             negotiate the bill at the end.\n\n\
             **Getting there:** {getting_there}. From the hotel in Baixa, allow about half an \
             hour door to door, more at rush hour.\n\n\
             **Local tip:** {tip}.\n\n\
             | Item | Per person | Group of 12 |\n\
             |---|---:|---:|\n\
             | Food and drinks | €{budget} | €{group} |\n\
             | Transport | €4 | €48 |\n\
             | Entry tickets | €{tickets} | €{tickets_group} |\n\n",
            name = p.name,
            vibe = p.vibe,
            landmark = p.landmark,
            food = p.food,
            getting_there = p.getting_there,
            tip = p.tip,
            budget = p.budget,
            tickets = (n % 4) * 5,
            tickets_group = (n % 4) * 60,
        ));
        if n % 3 == 0 {
            t.push_str(&format!(
                "Things to remember for {}:\n\n\
                 - Comfortable shoes: the pavements are polished limestone and slippery when wet.\n\
                 - A refillable bottle; public fountains are safe.\n\
                 - Cash for small bars, although cards work almost everywhere.\n\
                 - A plan B if it rains, such as a museum or a long lunch.\n\n",
                p.name
            ));
        }
        if n % 4 == 0 {
            t.push_str(
                "---\n\n\
                 A short break in the guide: if you are reading this while it streams, try \
                 scrolling up. The view should stay where you put it and not jump back to the \
                 bottom until you scroll down again.\n\n",
            );
        }
    }
    t.push_str(
        "## Putting it together\n\n\
         For a three-day offsite, pick one evening neighbourhood (Alfama or Mouraria), one \
         working base (LX Factory or Parque das Nações) and one free-day option (Belém, Sintra \
         or Cascais). Keep the first evening for the group dinner, the second day for the \
         workshop and the last day open, so that people can leave whenever their flights go.\n\n\
         1. Thursday: arrive, check in, dinner in Alfama.\n\
         2. Friday: workshop at LX Factory, lunch on site, drinks in Cais do Sodré.\n\
         3. Saturday: free morning in Belém, departures from noon.\n\n\
         That's the end of the long answer.\n",
    );
    t
}
